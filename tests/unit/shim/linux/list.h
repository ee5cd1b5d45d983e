/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host shim: the kernel's circular doubly linked list, the parts tests use. */
#ifndef SHIM_LINUX_LIST_H
#define SHIM_LINUX_LIST_H

#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))
#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry_or_null(head, type, member)	({		\
	struct list_head *_head = (head);				\
									\
	_head->next != _head ?						\
		list_entry(_head->next, type, member) : NULL;		\
})

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add(struct list_head *entry, struct list_head *head)
{
	entry->next = head->next;
	entry->prev = head;
	head->next->prev = entry;
	head->next = entry;
}

static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	list_add(entry, head->prev);
}

static inline void list_del(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	entry->next = NULL;
	entry->prev = NULL;
}

static inline int list_empty(const struct list_head *head)
{
	return head->next == head;
}

#endif
