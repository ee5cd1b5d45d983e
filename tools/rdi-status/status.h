/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What rdi-status reports, gathered from sysfs: SRP SCSI hosts with their
 * remote port, iSER sessions with their connections, the LUNs of both and
 * the dm-multipath maps on top. A number that sysfs does not have is
 * RDI_JSON_NONE; a string it does not have is empty.
 */
#ifndef RDI_STATUS_H
#define RDI_STATUS_H

#include <stdbool.h>

#include "json.h"

#define MAX_LUNS	64
#define MAX_CONNS	8
#define MAX_STATS	32
#define MAX_ITEMS	64
#define MAX_PATHS	16

struct lun {
	char	hctl[32];
	char	vendor[16];
	char	model[32];
	char	state[16];
	char	block[32];
	long long size_bytes;
	long long iorequest_cnt;
	long long iodone_cnt;
	long long ioerr_cnt;
	char	multipath[64];	/* dm name of the map holding it */
};

struct stat_value {
	char	name[48];
	long long value;
};

/* SCSI host state common to both transports. */
struct host_info {
	int	host;
	long long can_queue;
	long long host_busy;
	struct stat_value stats[MAX_STATS];
	int	nstats;
	struct lun luns[MAX_LUNS];
	int	nluns;
};

struct srp_host {
	struct host_info h;
	char	id_ext[24];
	char	ioc_guid[24];
	char	service_id[24];
	char	pkey[8];
	char	sgid[48];
	char	dgid[48];
	char	orig_dgid[48];
	char	dest[80];
	char	ibdev[32];
	long long port;
	long long req_lim;
	long long zero_req_lim;
	long long ch_count;
	long long poll_queues;		/* polled channels; RDI_JSON_NONE: no such attribute */
	long long comp_vector;
	long long tl_retry_count;
	long long cmd_sg_entries;
	char	allow_ext_sg[8];
	long long keepalive;		/* seconds; RDI_JSON_NONE: no such attribute */
	char	keepalive_state[16];	/* on, off, refused; "" when absent */
	char	rport[32];
	char	rport_state[16];
	char	port_id[64];
	long long failed_reconnects;
	char	reconnect_delay[16];
	char	fast_io_fail_tmo[16];
	char	dev_loss_tmo[16];
};

struct iser_conn {
	char	name[32];
	char	address[64];
	long long port;
	char	persistent_address[64];
	long long persistent_port;
	char	state[16];
	long long max_recv_dlength;
	long long max_xmit_dlength;
	long long ping_tmo;
	long long recv_tmo;
};

struct iser_session {
	struct host_info h;
	char	name[32];
	char	targetname[224];
	long long tpgt;
	char	state[32];
	char	target_state[32];
	long long recovery_tmo;
	char	ifacename[64];
	struct iser_conn conns[MAX_CONNS];
	int	nconns;
};

struct mpath_map {
	char	name[64];
	char	dm[16];
	char	uuid[128];
	char	paths[MAX_PATHS][32];
	int	npaths;
};

struct status {
	struct srp_host	srp[MAX_ITEMS];
	int		nsrp;
	struct iser_session iser[MAX_ITEMS];
	int		niser;
	struct mpath_map mpath[MAX_ITEMS];
	int		nmpath;
};

/* sysfs attribute or "" / RDI_JSON_NONE when absent (numbers: decimal or 0x hex) */
void read_str_attr(const char *dir, const char *attr, char *buf, size_t len);
void read_num_attr(const char *dir, const char *attr, long long *v);

/* Collectors (sysfs readers); each fills its part of @st. */
int collect_srp(struct status *st);
int collect_iser(struct status *st);
int collect_multipath(struct status *st);
/* SCSI host @host: queue numbers, driver counters and LUNs. */
void collect_host(struct host_info *h, int host);

/* Output */
void print_json(const struct status *st, FILE *f);
void print_table(const struct status *st, FILE *f, bool verbose);

#endif /* RDI_STATUS_H */
