# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP scenario helpers (sourced after /lab/lib.sh).

# srp_attr_fmt HOST ATTR REGEX: the host attribute matches REGEX exactly.
srp_attr_fmt() {
	local v
	v=$(cat /sys/class/scsi_host/host$1/$2) || return 1
	echo "$v" | grep -Eqx "$3" || { echo "$2='$v' !~ $3"; return 1; }
}

# srp_attr_enoent HOST ATTR: reading the attribute fails with ENOENT.
srp_attr_enoent() {
	local err
	err=$(cat /sys/class/scsi_host/host$1/$2 2>&1 >/dev/null)
	echo "$err" | grep -q "No such file or directory"
}

# srp_add_target_errno PATH ERRTEXT STRING: writing STRING to add_target of
# path 0 or 1 fails with the error whose strerror() text is ERRTEXT.
srp_add_target_errno() {
	local rxe=$RXE0 out
	[ "$1" = 1 ] && rxe=$RXE1
	out=$(bash -c 'echo "$1" > "$2"' _ "$3" \
		/sys/class/infiniband_srp/srp-$rxe-1/add_target 2>&1) && {
		echo "write succeeded"; return 1; }
	echo "$out" | grep -q "$2" || { echo "$out"; return 1; }
}

# srp_logout HOST: rport delete, wait until the host is gone.
srp_logout() {
	echo 1 > /sys/class/srp_remote_ports/port-$1:1/delete || return 1
	lab_wait 60 test ! -e /sys/class/scsi_host/host$1
}

# srp_logout_all: log every ib_srp host out; fails if any logout failed
# (the others are still tried).
srp_logout_all() {
	local h ret=0
	for h in $(lab_srp_hosts); do
		srp_logout "$h" || { echo "logout of host$h failed"; ret=1; }
	done
	return $ret
}

# srp_wait_disks HOST N: wait until HOST has N block devices.
srp_wait_disks() {
	lab_wait 60 sh -c "[ \$(ls -d /sys/class/scsi_host/host$1/device/target*/*:*:*:*/block 2>/dev/null | wc -l) -ge $2 ]"
}

# srp_big_writes DEV: 8 MiB writes, direct and buffered, read back and
# compared.
srp_big_writes() {
	local dev=/dev/${1#/dev/} f=/tmp/srp-big.$$ ret=0
	dd if=/dev/urandom of=$f bs=8M count=2 status=none || return 1
	dd if=$f of=$dev bs=8M count=2 oflag=direct status=none || ret=1
	cmp -n 16777216 $f $dev || ret=1
	dd if=$f of=$dev bs=8M count=2 seek=2 status=none conv=fsync || ret=1
	echo 3 > /proc/sys/vm/drop_caches
	cmp -n 16777216 -i 0:16777216 $f $dev || ret=1
	rm -f $f
	return $ret
}

# srp_add_target_ok PATH STRING: writing STRING to add_target succeeds.
srp_add_target_ok() {
	local rxe=$RXE0
	[ "$1" = 1 ] && rxe=$RXE1
	bash -c 'echo "$1" > "$2"' _ "$2" \
		/sys/class/infiniband_srp/srp-$rxe-1/add_target
}

# srp_add_target_fails PATH STRING: writing STRING to add_target fails.
srp_add_target_fails() {
	! srp_add_target_ok "$@" 2>/dev/null
}

# srp_acl_v6 PATHIDX: ib_srpt names RDMA/CM sessions by the initiator
# address in uncompressed form; give the link-local one of path PATHIDX an
# ACL with every LUN on both target ports.
srp_acl_v6() {
	local ip tpg l
	ip=$(lab_full_v6 "$(lab_ll_addr $1)")
	for tpg in $CFS/srpt/*/*/; do
		[ -d "$tpg/acls" ] || continue
		mkdir -p "$tpg/acls/$ip"
		for l in "$tpg"lun/lun_*; do
			mkdir -p "$tpg/acls/$ip/${l##*/}"
			ln -s "$l" "$tpg/acls/$ip/${l##*/}/" 2>/dev/null
		done
	done
	return 0
}

# A LUN whose backing device a scenario can stall (srp_tmf, srp_poll).
SRP_SLOW_DM=srptmf
SRP_SLOW_LUN=9
SRP_SLOW_BS=$CFS/core/iblock_9/srptmf

# srp_slow_up: LUN $SRP_SLOW_LUN on rxe0's target port, backed by LIO iblock on
# a dm linear map over /dev/ram0 that the scenario can suspend.
srp_slow_up() {
	local port tpg
	modprobe brd rd_nr=1 rd_size=65536 || return 1
	lab_wait 10 test -b /dev/ram0 || return 1
	dmsetup create $SRP_SLOW_DM --table \
		"0 $(blockdev --getsz /dev/ram0) linear /dev/ram0 0" || return 1
	mkdir -p $SRP_SLOW_BS || return 1
	echo udev_path=/dev/mapper/$SRP_SLOW_DM > $SRP_SLOW_BS/control
	echo 1 > $SRP_SLOW_BS/enable || return 1
	printf '%02x%02x%028x\n' 3 9 0 > $SRP_SLOW_BS/wwn/vpd_unit_serial
	port=$(_lab_rxe_guid_name $RXE0)
	tpg=$CFS/srpt/$port/$port
	mkdir -p $tpg/lun/lun_$SRP_SLOW_LUN $tpg/acls/$IP0/lun_$SRP_SLOW_LUN || return 1
	ln -s $SRP_SLOW_BS $tpg/lun/lun_$SRP_SLOW_LUN/srptmf || return 1
	ln -s $tpg/lun/lun_$SRP_SLOW_LUN $tpg/acls/$IP0/lun_$SRP_SLOW_LUN/lun || return 1
}

srp_slow_down() {
	local port tpg
	port=$(_lab_rxe_guid_name $RXE0)
	tpg=$CFS/srpt/$port/$port
	dmsetup resume $SRP_SLOW_DM 2>/dev/null
	rm -f $tpg/acls/$IP0/lun_$SRP_SLOW_LUN/lun
	rmdir $tpg/acls/$IP0/lun_$SRP_SLOW_LUN 2>/dev/null
	rm -f $tpg/lun/lun_$SRP_SLOW_LUN/srptmf
	rmdir $tpg/lun/lun_$SRP_SLOW_LUN 2>/dev/null
	rmdir $SRP_SLOW_BS $CFS/core/iblock_9 2>/dev/null
	dmsetup remove $SRP_SLOW_DM || return 1
	modprobe -r brd
}

# srp_lun_disk HOST LUN: the block device of LUN on HOST.
srp_lun_disk() {
	local b
	for b in /sys/class/scsi_host/host$1/device/target*/$1:0:0:$2/block/*; do
		[ -e "$b" ] && { echo "${b##*/}"; return 0; }
	done
	return 1
}
