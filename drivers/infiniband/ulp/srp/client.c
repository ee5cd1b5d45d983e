// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: IB client and the infiniband_srp class devices.
 *
 * For every RDMA device the IB core reports we keep a struct srp_device and,
 * per port, a class device /sys/class/infiniband_srp/srp-<dev>-<port> with
 * the files add_target (0200), ibdev and port. Device removal takes every
 * target of the device down before the class devices go away.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/nsproxy.h>
#include <net/net_namespace.h>

#include "device.h"
#include "target.h"
#include "client.h"
#include "login.h"

/* Pages one FR MR maps for SRP, at most. */
#define SRP_MAX_PAGES_PER_MR	512

static bool srp_register_always = true;
module_param_named(register_always, srp_register_always, bool, 0444);
MODULE_PARM_DESC(register_always,
		 "Register memory even for contiguous regions (default true; false uses an unsafe global rkey)");

static bool srp_never_register;
module_param_named(never_register, srp_never_register, bool, 0444);
MODULE_PARM_DESC(never_register,
		 "Never register memory; uses an unsafe global rkey (default false)");

static struct ib_client srp_client;

static struct srp_host *dev_to_host(struct device *dev)
{
	return container_of(dev, struct srp_host, dev);
}

static ssize_t add_target_store(struct device *dev,
				struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct srp_host *host = dev_to_host(dev);
	struct srp_target_opts *opts;
	char why[SRP_OPTS_WHY_LEN];
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	opts = kzalloc(sizeof(*opts), GFP_KERNEL);
	if (!opts)
		return -ENOMEM;

	why[0] = '\0';
	ret = srp_parse_target_opts(current->nsproxy->net_ns, buf, count, opts,
				    why, sizeof(why));
	if (ret) {
		dev_warn(dev, "add_target rejected: %s (%d)\n", why, ret);
		goto out;
	}

	ret = srp_target_add(host, opts);
out:
	kfree(opts);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(add_target);

static ssize_t ibdev_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  dev_name(&dev_to_host(dev)->sdev->ib_dev->dev));
}
static DEVICE_ATTR_RO(ibdev);

static ssize_t port_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_host(dev)->port);
}
static DEVICE_ATTR_RO(port);

static struct attribute *srp_class_attrs[] = {
	&dev_attr_add_target.attr,
	&dev_attr_ibdev.attr,
	&dev_attr_port.attr,
	NULL
};
ATTRIBUTE_GROUPS(srp_class);

static void srp_host_release(struct device *dev)
{
	complete(&dev_to_host(dev)->released);
}

static struct class srp_class = {
	.name		= "infiniband_srp",
	.dev_groups	= srp_class_groups,
	.dev_release	= srp_host_release,
};

static struct srp_host *srp_host_add(struct srp_device *sdev, u32 port)
{
	struct srp_host *host;

	host = kzalloc(sizeof(*host), GFP_KERNEL);
	if (!host)
		return NULL;

	host->sdev = sdev;
	host->port = port;
	mutex_init(&host->add_mutex);
	spin_lock_init(&host->lock);
	INIT_LIST_HEAD(&host->targets);
	init_completion(&host->released);

	device_initialize(&host->dev);
	host->dev.class = &srp_class;
	host->dev.parent = sdev->ib_dev->dev.parent;
	if (dev_set_name(&host->dev, "srp-%s-%u", dev_name(&sdev->ib_dev->dev),
			 port))
		goto err_put;
	if (device_add(&host->dev))
		goto err_put;

	return host;

err_put:
	put_device(&host->dev);
	wait_for_completion(&host->released);
	kfree(host);
	return NULL;
}

/*
 * Tear a port down: first the targets (they use the port), then the class
 * device; wait for its release so that no sysfs writer still runs. Deleting
 * the class device waits for an add_target write in progress: its login is
 * broken off first.
 */
static void srp_host_remove(struct srp_host *host)
{
	srp_target_stop_adding(host);
	device_del(&host->dev);
	srp_target_remove_all(host);
	put_device(&host->dev);
	wait_for_completion(&host->released);
	kfree(host);
}

/*
 * Choose how commands reach their data. Fast registration is the default;
 * never_register=Y and register_always=N ask for commands under a global
 * rkey, which only a PD allocated with IB_PD_UNSAFE_GLOBAL_RKEY has. That PD
 * is SRP's own and shared by all its channels on the device: rdi_core's
 * shared PD (iSER's too) never gets such a key. Without those parameters no
 * global rkey exists at all and every channel has a PD of its own
 * (srp_ch_create_ib()).
 */
static int srp_setup_registration(struct srp_device *sdev)
{
	struct rdi_device *rdi = sdev->rdi;

	sdev->max_pages_per_mr = min_t(u32, rdi->max_fr_pages,
				       SRP_MAX_PAGES_PER_MR);
	sdev->use_fr = rdi->fr_supported && !srp_never_register &&
		       sdev->max_pages_per_mr > 0;
	sdev->register_always = srp_register_always;

	if (!srp_wants_global_rkey(srp_never_register, srp_register_always)) {
		if (!sdev->use_fr) {
			dev_info(&sdev->ib_dev->dev,
				 "no fast registration; SRP needs never_register=1 (unsafe global rkey) on this device\n");
			return -EOPNOTSUPP;
		}
		return 0;
	}

	sdev->pd = ib_alloc_pd(sdev->ib_dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	if (IS_ERR(sdev->pd)) {
		int ret = PTR_ERR(sdev->pd);

		dev_warn(&sdev->ib_dev->dev,
			 "cannot allocate a PD with a global rkey for SRP: %d\n",
			 ret);
		sdev->pd = NULL;
		return ret;
	}
	sdev->global_rkey = sdev->pd->unsafe_global_rkey;
	return 0;
}

/* Undo srp_setup_registration(); every QP on @sdev->pd is gone. */
static void srp_teardown_registration(struct srp_device *sdev)
{
	if (sdev->pd)
		ib_dealloc_pd(sdev->pd);
	sdev->pd = NULL;
}

static int srp_add_one(struct ib_device *ib_dev)
{
	struct srp_device *sdev;
	struct srp_host *host, *tmp;
	u32 port;
	int ret;

	sdev = kzalloc(sizeof(*sdev), GFP_KERNEL);
	if (!sdev)
		return -ENOMEM;

	sdev->ib_dev = ib_dev;
	INIT_LIST_HEAD(&sdev->hosts);
	sdev->rdi = rdi_device_get(ib_dev);
	if (IS_ERR(sdev->rdi)) {
		ret = PTR_ERR(sdev->rdi);
		dev_warn(&ib_dev->dev, "no RDMA resources for SRP: %d\n", ret);
		goto err_free;
	}
	ret = srp_setup_registration(sdev);
	if (ret)
		goto err_put_rdi;

	rdma_for_each_port(ib_dev, port) {
		host = srp_host_add(sdev, port);
		if (host)
			list_add_tail(&host->entry, &sdev->hosts);
	}
	if (list_empty(&sdev->hosts)) {
		ret = -ENOMEM;
		goto err_teardown_registration;
	}

	ib_set_client_data(ib_dev, &srp_client, sdev);
	return 0;

err_teardown_registration:
	list_for_each_entry_safe(host, tmp, &sdev->hosts, entry)
		srp_host_remove(host);
	srp_teardown_registration(sdev);
err_put_rdi:
	rdi_device_put(sdev->rdi);
err_free:
	kfree(sdev);
	return ret;
}

static void srp_remove_one(struct ib_device *ib_dev, void *client_data)
{
	struct srp_device *sdev = client_data;
	struct srp_host *host, *tmp;

	list_for_each_entry_safe(host, tmp, &sdev->hosts, entry) {
		list_del(&host->entry);
		srp_host_remove(host);
	}
	/* No id of ours lingers for a DREQ over a device that goes away. */
	srp_cm_ids_end();
	srp_teardown_registration(sdev);
	rdi_device_put(sdev->rdi);
	kfree(sdev);
}

static void srp_rename_dev(struct ib_device *ib_dev, void *client_data)
{
	struct srp_device *sdev = client_data;
	struct srp_host *host;
	char name[IB_DEVICE_NAME_MAX + 12];

	list_for_each_entry(host, &sdev->hosts, entry) {
		snprintf(name, sizeof(name), "srp-%s-%u",
			 dev_name(&ib_dev->dev), host->port);
		if (device_rename(&host->dev, name))
			dev_warn(&host->dev, "rename to %s failed\n", name);
	}
}

static struct ib_client srp_client = {
	.name	= "srp",
	.add	= srp_add_one,
	.remove	= srp_remove_one,
	.rename	= srp_rename_dev,
};

/**
 * srp_client_register() - register the class and the IB client
 *
 * Return: 0 or a negative errno.
 */
int srp_client_register(void)
{
	int ret;

	/* Security note, once: see srp_setup_registration(). */
	if (srp_wants_global_rkey(srp_never_register, srp_register_always))
		pr_warn("%s: SRP uses a PD with an unsafe global rkey; SRP targets can read and write all memory of this host\n",
			srp_never_register ? "never_register=Y" :
			"register_always=N");

	ret = class_register(&srp_class);
	if (ret) {
		pr_err("cannot register class infiniband_srp: %d\n", ret);
		return ret;
	}
	ret = ib_register_client(&srp_client);
	if (ret) {
		pr_err("cannot register IB client: %d\n", ret);
		class_unregister(&srp_class);
	}
	return ret;
}

/**
 * srp_client_unregister() - undo srp_client_register()
 *
 * Removes every port of every device, and with them every target.
 */
void srp_client_unregister(void)
{
	ib_unregister_client(&srp_client);
	class_unregister(&srp_class);
}
