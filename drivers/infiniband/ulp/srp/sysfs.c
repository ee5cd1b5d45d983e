// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * ib_srp: SCSI host attributes (/sys/class/scsi_host/hostN/).
 *
 * Names and formats are those of the in-tree driver, which srp_daemon and
 * admin scripts parse: 64-bit identifiers as 0x%016llx, GIDs in full IPv6
 * notation, IB-CM-only attributes -ENOENT on RDMA/CM logins. The extra
 * attribute "stats" sums the per-channel counters; writing to it resets
 * them. "poll_queues" is the number of polled channels, which "ch_count"
 * (the interrupt-driven ones, as the in-tree driver has only those) leaves
 * out.
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <scsi/scsi_host.h>

#include "device.h"
#include "sysfs.h"

static struct srp_target *dev_to_target(struct device *dev)
{
	return host_to_target(class_to_shost(dev));
}

static bool srp_is_rdma_cm(struct srp_target *target)
{
	return srp_target_opts_rdma_cm(&target->opts);
}

static ssize_t id_ext_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%016llx\n", dev_to_target(dev)->opts.id_ext);
}
static DEVICE_ATTR_RO(id_ext);

static ssize_t ioc_guid_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "0x%016llx\n",
			  dev_to_target(dev)->opts.ioc_guid);
}
static DEVICE_ATTR_RO(ioc_guid);

static ssize_t service_id_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct srp_target *target = dev_to_target(dev);

	if (srp_is_rdma_cm(target))
		return -ENOENT;
	return sysfs_emit(buf, "0x%016llx\n", target->opts.service_id);
}
static DEVICE_ATTR_RO(service_id);

static ssize_t pkey_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct srp_target *target = dev_to_target(dev);

	if (srp_is_rdma_cm(target))
		return -ENOENT;
	return sysfs_emit(buf, "0x%04x\n", target->opts.pkey);
}
static DEVICE_ATTR_RO(pkey);

static ssize_t sgid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pI6\n", dev_to_target(dev)->sgid.raw);
}
static DEVICE_ATTR_RO(sgid);

static ssize_t dgid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct srp_target *target = dev_to_target(dev);

	if (srp_is_rdma_cm(target))
		return -ENOENT;
	return sysfs_emit(buf, "%pI6\n", target->dgid.raw);
}
static DEVICE_ATTR_RO(dgid);

static ssize_t orig_dgid_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	struct srp_target *target = dev_to_target(dev);

	if (srp_is_rdma_cm(target))
		return -ENOENT;
	return sysfs_emit(buf, "%pI6\n", target->orig_dgid.raw);
}
static DEVICE_ATTR_RO(orig_dgid);

/*
 * RDMA/CM logins: the dest= of add_target, in the form it accepts - an
 * IPv6 scope inside the brackets, where %pISpcs would put it after the port.
 */
static ssize_t dest_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct srp_target *target = dev_to_target(dev);
	const struct sockaddr_in6 *sin6;
	const struct sockaddr_in *sin;

	if (!srp_is_rdma_cm(target))
		return -ENOENT;
	if (target->opts.dest.ss_family == AF_INET) {
		sin = (const struct sockaddr_in *)&target->opts.dest;
		return sysfs_emit(buf, "%pI4:%u\n", &sin->sin_addr,
				  ntohs(sin->sin_port));
	}
	sin6 = (const struct sockaddr_in6 *)&target->opts.dest;
	if (sin6->sin6_scope_id)
		return sysfs_emit(buf, "[%pI6c%%%u]:%u\n", &sin6->sin6_addr,
				  sin6->sin6_scope_id, ntohs(sin6->sin6_port));
	return sysfs_emit(buf, "[%pI6c]:%u\n", &sin6->sin6_addr,
			  ntohs(sin6->sin6_port));
}
static DEVICE_ATTR_RO(dest);

static ssize_t req_lim_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct srp_target *target = dev_to_target(dev);
	int req_lim = INT_MAX;
	unsigned int i;

	for (i = 0; i < target->ch_count; i++)
		req_lim = min_t(int, req_lim, READ_ONCE(target->ch[i].req_lim));
	return sysfs_emit(buf, "%d\n", target->ch_count ? req_lim : 0);
}
static DEVICE_ATTR_RO(req_lim);

static ssize_t zero_req_lim_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct srp_target *target = dev_to_target(dev);
	unsigned int i;
	int n = 0;

	for (i = 0; i < target->ch_count; i++)
		n += atomic_read(&target->ch[i].zero_req_lim);
	return sysfs_emit(buf, "%d\n", n);
}
static DEVICE_ATTR_RO(zero_req_lim);

static ssize_t local_ib_port_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_target(dev)->host->port);
}
static DEVICE_ATTR_RO(local_ib_port);

static ssize_t local_ib_device_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  dev_name(&dev_to_target(dev)->host->sdev->ib_dev->dev));
}
static DEVICE_ATTR_RO(local_ib_device);

/* The channels ch_count asked for: the polled ones are poll_queues. */
static ssize_t ch_count_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", srp_irq_ch_count(dev_to_target(dev)));
}
static DEVICE_ATTR_RO(ch_count);

static ssize_t poll_queues_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_target(dev)->poll_count);
}
static DEVICE_ATTR_RO(poll_queues);

static ssize_t comp_vector_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_target(dev)->opts.comp_vector);
}
static DEVICE_ATTR_RO(comp_vector);

static ssize_t tl_retry_count_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  dev_to_target(dev)->opts.tl_retry_count);
}
static DEVICE_ATTR_RO(tl_retry_count);

static ssize_t cmd_sg_entries_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_target(dev)->cmd_sg_cnt);
}
static DEVICE_ATTR_RO(cmd_sg_entries);

static ssize_t allow_ext_sg_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  dev_to_target(dev)->opts.allow_ext_sg ? "true" :
								  "false");
}
static DEVICE_ATTR_RO(allow_ext_sg);

static ssize_t keepalive_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_target(dev)->opts.keepalive);
}
static DEVICE_ATTR_RO(keepalive);

static ssize_t keepalive_state_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct srp_target *target = dev_to_target(dev);

	if (!target->opts.keepalive)
		return sysfs_emit(buf, "off\n");
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(target->ka_refused) ? "refused" : "on");
}
static DEVICE_ATTR_RO(keepalive_state);

/* One line per counter, summed over channels: "<name> <value>". */
static ssize_t stats_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct srp_target *target = dev_to_target(dev);
	unsigned int i, s;
	ssize_t len = 0;
	u64 sum;

	for (s = 0; s < RDI_STAT_NR; s++) {
		sum = 0;
		for (i = 0; i < target->ch_count; i++)
			sum += rdi_stats_read(&target->ch[i].stats, s);
		len += sysfs_emit_at(buf, len, "%s %llu\n", rdi_stat_name(s),
				     sum);
	}
	return len;
}

static ssize_t stats_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct srp_target *target = dev_to_target(dev);
	unsigned int i;

	for (i = 0; i < target->ch_count; i++)
		rdi_stats_reset(&target->ch[i].stats);
	return count;
}
static DEVICE_ATTR_RW(stats);

static struct attribute *srp_host_attrs[] = {
	&dev_attr_id_ext.attr,
	&dev_attr_ioc_guid.attr,
	&dev_attr_service_id.attr,
	&dev_attr_pkey.attr,
	&dev_attr_sgid.attr,
	&dev_attr_dgid.attr,
	&dev_attr_orig_dgid.attr,
	&dev_attr_dest.attr,
	&dev_attr_req_lim.attr,
	&dev_attr_zero_req_lim.attr,
	&dev_attr_local_ib_port.attr,
	&dev_attr_local_ib_device.attr,
	&dev_attr_ch_count.attr,
	&dev_attr_poll_queues.attr,
	&dev_attr_comp_vector.attr,
	&dev_attr_tl_retry_count.attr,
	&dev_attr_cmd_sg_entries.attr,
	&dev_attr_allow_ext_sg.attr,
	&dev_attr_keepalive.attr,
	&dev_attr_keepalive_state.attr,
	&dev_attr_stats.attr,
	NULL
};

static const struct attribute_group srp_host_group = {
	.attrs = srp_host_attrs,
};

const struct attribute_group *srp_host_groups[] = {
	&srp_host_group,
	NULL
};
