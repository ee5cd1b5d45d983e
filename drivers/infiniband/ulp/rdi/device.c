// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * rdi_core: the per-ib_device cache.
 *
 * Both initiators need the same things from an RDMA device before they can
 * create a QP: a protection domain and the device's memory-registration
 * limits. One &struct rdi_device per ib_device holds them for every user,
 * found by rdi_device_get() and freed by the last rdi_device_put().
 *
 * Copyright (c) 2026 The rdma-initiators authors.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <rdi/core.h>

#include "rdi.h"

/**
 * struct rdi_device_entry - an rdi_device and what only this file touches
 * @dev:   the part users see
 * @ref:   users (rdi_device_get/put)
 * @entry: link in rdi_devices
 *
 * @ref and @entry change under rdi_devices_mutex only.
 */
struct rdi_device_entry {
	struct rdi_device	dev;
	struct kref		ref;
	struct list_head	entry;
};

/*
 * rdi_devices lists every live rdi_device. rdi_devices_mutex protects the
 * list and every change of a listed device's @ref, so a lookup never finds a
 * device whose last reference is being dropped.
 */
static LIST_HEAD(rdi_devices);
static DEFINE_MUTEX(rdi_devices_mutex);

static struct rdi_device_entry *rdi_entry(struct rdi_device *dev)
{
	return container_of(dev, struct rdi_device_entry, dev);
}

static void rdi_device_init_caps(struct rdi_device *dev)
{
	const struct ib_device_attr *attr = &dev->ib_dev->attrs;
	unsigned int shift;

	/*
	 * Register in the smallest page size the device supports, but never
	 * below 4 KiB: that is what the block layer's segments are made of.
	 */
	shift = max_t(unsigned int, ilog2(SZ_4K),
		      attr->page_size_cap ? __ffs64(attr->page_size_cap) : 0);
	dev->mr_page_size = 1U << shift;
	dev->mr_page_mask = ~((u64)dev->mr_page_size - 1);
	dev->max_fr_pages = attr->max_fast_reg_page_list_len;
	dev->max_sge = attr->max_send_sge;
	dev->fr_supported = attr->device_cap_flags &
			    IB_DEVICE_MEM_MGT_EXTENSIONS;
	dev->sg_gaps = attr->kernel_cap_flags & IBK_SG_GAPS_REG;
	dev->integrity = attr->kernel_cap_flags & IBK_INTEGRITY_HANDOVER;
	/*
	 * Soft-RoCE, in 6.1 and 6.12 alike: a retry rewinds its requester to
	 * the oldest work request not yet retired and walks on from there,
	 * executing the local ones it meets even when they were done already.
	 */
	dev->replays_local_wrs = dev->ib_dev->ops.driver_id == RDMA_DRIVER_RXE;
}

static struct rdi_device_entry *rdi_device_create(struct ib_device *ib_dev)
{
	struct rdi_device_entry *e;
	struct rdi_device *dev;
	int ret;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);

	dev = &e->dev;
	dev->ib_dev = ib_dev;
	kref_init(&e->ref);
	rdi_device_init_caps(dev);

	dev->pd = ib_alloc_pd(ib_dev, 0);
	if (IS_ERR(dev->pd)) {
		ret = PTR_ERR(dev->pd);
		dev_err(&ib_dev->dev, "rdi: cannot allocate a PD: %d\n", ret);
		goto err_free_dev;
	}

	dev_dbg(&ib_dev->dev,
		"rdi: mr_page_size %u max_fr_pages %u max_sge %u fr %d sg_gaps %d integrity %d\n",
		dev->mr_page_size, dev->max_fr_pages, dev->max_sge,
		dev->fr_supported, dev->sg_gaps, dev->integrity);
	return e;

err_free_dev:
	kfree(e);
	return ERR_PTR(ret);
}

/**
 * rdi_device_get() - find or create the shared state of an RDMA device
 * @ib_dev: the device, typically from an ib_client .add callback or from a
 *          connected rdma_cm_id
 *
 * The first call for @ib_dev allocates its protection domain and reads its
 * registration capabilities; later calls return the same structure with one
 * more reference. May sleep.
 *
 * Return: the device with a reference the caller drops with
 * rdi_device_put(), or an ERR_PTR() (-ENOMEM, or the PD allocation error).
 */
struct rdi_device *rdi_device_get(struct ib_device *ib_dev)
{
	struct rdi_device_entry *e;

	mutex_lock(&rdi_devices_mutex);
	list_for_each_entry(e, &rdi_devices, entry) {
		if (e->dev.ib_dev == ib_dev) {
			kref_get(&e->ref);
			goto out_unlock;
		}
	}

	e = rdi_device_create(ib_dev);
	if (IS_ERR(e)) {
		mutex_unlock(&rdi_devices_mutex);
		return ERR_CAST(e);
	}
	list_add(&e->entry, &rdi_devices);
out_unlock:
	mutex_unlock(&rdi_devices_mutex);
	return &e->dev;
}
EXPORT_SYMBOL_GPL(rdi_device_get);

/* kref release, called with rdi_devices_mutex held: unpublish only. */
static void rdi_device_unlink(struct kref *ref)
{
	struct rdi_device_entry *e = container_of(ref, struct rdi_device_entry,
						  ref);

	lockdep_assert_held(&rdi_devices_mutex);
	list_del(&e->entry);
}

/**
 * rdi_device_put() - drop a reference taken by rdi_device_get()
 * @dev: the device; NULL is ignored
 *
 * The last reference deallocates the protection domain, so every QP and MR
 * created on it must be gone by then. May sleep.
 */
void rdi_device_put(struct rdi_device *dev)
{
	struct rdi_device_entry *e;
	bool last;

	if (!dev)
		return;

	e = rdi_entry(dev);
	mutex_lock(&rdi_devices_mutex);
	last = kref_put(&e->ref, rdi_device_unlink);
	mutex_unlock(&rdi_devices_mutex);
	if (!last)
		return;

	ib_dealloc_pd(dev->pd);
	kfree(e);
}
EXPORT_SYMBOL_GPL(rdi_device_put);

/* Module exit: users hold a module reference, so nothing may be left. */
void rdi_device_cache_exit(void)
{
	mutex_lock(&rdi_devices_mutex);
	WARN(!list_empty(&rdi_devices), "rdi: devices still referenced at exit\n");
	mutex_unlock(&rdi_devices_mutex);
}
