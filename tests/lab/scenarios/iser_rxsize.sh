# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER receive buffers against the receive size iscsid declares: ours
# declares no more than rx_data_max in the login (iscsid says 262144 for a
# normal session, 32768 for discovery) and receives what it declared. A
# SendTargets response of ~12 KiB (100 more targets) must then arrive in
# two text PDUs, none larger than an 8 KiB receive buffer; a driver that
# declared more than it can hold loses the connection on the first one.
# ib_iser receives them into buffers of 384 bytes each, continued in one
# shared large buffer: every name and address must arrive intact. A
# normal session with 4 KiB buffers carries sense data and fio.
# Ours only: rx_data_max is our parameter (the in-tree driver receives
# discovery text into its 8 KiB login buffer).
#
# Each size also logs in to $ISER_IQN2, whose name is 2 bytes longer: its
# first login request has another pad to a 4-byte boundary (0 and 2, or
# 1 and 3). The first form of the rewrite (c4d972e) rewrote iscsid's pad
# NULs along with the text and declared them in DataSegmentLength, so LIO
# refused every login request that had a pad ("Unable to locate "="
# separator for key"): lab-b in iser_targets, and most likely the
# LUN-less $ISER_IQN-empty (6 bytes longer) that timed out in the first
# iser_cycles, while $ISER_IQN, this scenario's only login then, had none.
#
# lab-drivers: ours
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
[ -e /sys/module/ib_iser ] && iser_unload
check "second target $ISER_IQN2" iser_target2_up
check "100 more targets for a long SendTargets response" iser_many_targets_up 100

rx_cycle() {
	local size=$1 disk
	check "ib_iser loads with rx_data_max=$size" lab_iser_load rx_data_max=$size
	check "rx_data_max is $size" grep -qx "$size" /sys/module/ib_iser/parameters/rx_data_max
	check "discovery over iSER lists the 100 long-named targets intact (rx $size)" \
		iser_discover_many $IP0 100
	check "login on $IP0 (rx $size)" iser_login $IP0
	check "2 disks on $IP0 (rx $size)" iser_wait_disks $IP0 2
	check "negotiated receive size is at most $size" sh -c \
		"v=\$(cat /sys/class/iscsi_connection/connection*/max_recv_dlength); [ \"\$v\" -ge 512 ] && [ \"\$v\" -le $size ]"
	lab_note "max_recv_dlength $(iser_conn_attr $IP0 max_recv_dlength)"
	disk=$(iser_disks $IP0 | head -1)
	check "sense data of a rejected command arrives (rx $size)" sh -c \
		"sg_raw /dev/$disk ff 00 00 00 00 00 2>&1 | grep -qi 'illegal request'"
	check "fio verify (rx $size)" lab_fio_verify "$disk" --iodepth=16 --bsrange=4k-64k
	check "session still logged in (rx $size)" sh -c \
		"grep -q LOGGED_IN /sys/class/iscsi_session/$(iser_session $IP0)/state"
	check "logout (rx $size)" iser_logout $IP0
	check "login to $ISER_IQN2 (rx $size)" \
		iscsiadm -m node -T $ISER_IQN2 -p $IP0:3260 -I iser --login
	check "negotiated receive size on $ISER_IQN2 is at most $size" sh -c \
		"v=\$(cat /sys/class/iscsi_connection/connection*/max_recv_dlength); [ \"\$v\" -ge 512 ] && [ \"\$v\" -le $size ]"
	check "logout from $ISER_IQN2 (rx $size)" \
		iscsiadm -m node -T $ISER_IQN2 -p $IP0:3260 -I iser --logout
	check "ib_iser unloads (rx $size)" iser_unload
}

# Issue 32 (Low): a receive buffer larger than kmalloc gives (4 MiB on
# x86-64) is refused at load, where it only failed every login with an
# allocation warning; the largest one loads.
lab_log_mark
check "rx_data_max=16777215 is refused at load" sh -c "! modprobe ib_iser rx_data_max=16777215"
check "the kernel log names the parameter" lab_log_has "16777215' invalid for parameter .rx_data_max"
check "rx_data_max=4194304 loads" lab_iser_load rx_data_max=4194304
check "ib_iser unloads (rx 4194304)" iser_unload

# the default: a ~12 KiB SendTargets response comes as two text PDUs
rx_cycle 8192
rx_cycle 4096

# max_lun at load bounds the LUNs a session scans (issue 33's coverage):
# the SCSI midlayer takes a reported LUN up to and including max_lun, so
# with a third LUN on the target and max_lun=1 the session has LUNs 0 and
# 1, and the log says LUN 2 was refused. (Here as this scenario loads
# ib_iser anyway.)
tpg=$CFS/iscsi/$ISER_IQN/tpgt_1
acl=$tpg/acls/$(lab_initiator_iqn)
# luns_are IP LIST: the LUNs of the session to IP, after a rescan, are LIST.
luns_are() {
	local s l
	s=$(iser_session "$1") || return 1
	iscsiadm -m session -r "${s#session}" --rescan >/dev/null || return 1
	l=$(ls -d /sys/class/iscsi_session/$s/device/target*/*:*:*:* | sed 's|.*:||' | sort -n | xargs)
	echo "LUNs: $l"
	[ "$l" = "$2" ]
}
_lab_backstore iscsi2 2 2
check "a third LUN on $ISER_IQN" sh -c "mkdir -p $tpg/lun/lun_2 $acl/lun_2 &&
	ln -s $CFS/core/rd_mcp_0/iscsi2 $tpg/lun/lun_2/ && ln -s $tpg/lun/lun_2 $acl/lun_2/"
check "ib_iser loads with max_lun=1" lab_iser_load max_lun=1
lab_log_mark
check "login (max_lun=1)" iser_login $IP0
check "max_lun=1: disks on $IP0" iser_wait_disks $IP0 2
check "max_lun=1: LUNs 0 and 1 of 3, after a rescan too" luns_are $IP0 "0 1"
check "max_lun=1: the log says LUN 2 is beyond it" lab_log_has "lun2 has a LUN larger than allowed"
check "logout (max_lun=1)" iser_logout $IP0
check "ib_iser unloads (max_lun=1)" iser_unload
check "the third LUN removed" sh -c "find $acl/lun_2 $tpg/lun/lun_2 -maxdepth 1 -type l -delete &&
	rmdir $acl/lun_2 $tpg/lun/lun_2"
check "extra targets and their node records removed" iser_many_targets_down
