# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# add_target forms: IPv4, global IPv6 and IPv6 link-local dest with scope,
# repeated keys and empty tokens, srp_daemon's IB CM strings (must fail
# clearly on RoCE), malformed strings (EINVAL, nothing left behind). Every
# RDMA/CM login's sgid, the source of its initiator port identifier, is the
# port's GID at index 0 as with the in-tree driver (not the GID of the
# address the connection uses); ours also shows the login's dest= in
# "dest".
#
# Then the identifier itself: rxe0's target port configured by GID (ib_srpt's
# "0x<GID 0>" name, which matches ACLs by initiator port identifier rather
# than by address), whose only ACL is the identifier the in-tree driver sends
# (initiator_ext, then the interface ID of the port's GID 0), takes the
# IPv4, global IPv6 and link-local logins of either driver; an ACL with the
# identifier an IPv4-mapped GID makes (what ours sent before) refuses. In the
# lab the initiator and the target share rxe0, so its GID 0 names both ends.
#
# Then src= (the login's source address) and topspin_workarounds.
#
# lab-drivers: ours intree
. /lab/lib-srp.sh
. /lab/lib-tools.sh

lab_srpt_up 2
srp_acl_v6 0
check "ib_srp loads" lab_srp_load
g=$(srpt_guid)
ll=$(lab_ll_addr 0)
idx=$(lab_ifindex 0)

# sgid_is_gid0 H: host H's sgid is GID 0 of the port it logged in through.
sgid_is_gid0() {
	local s=/sys/class/scsi_host/host$1 g
	g=$(cat /sys/class/infiniband/$(cat $s/local_ib_device)/ports/$(cat $s/local_ib_port)/gids/0)
	echo "sgid $(cat $s/sgid), GID 0 $g"
	[ "$(cat $s/sgid)" = "$g" ]
}
# dest_is H DEST: ours shows the login's destination as given.
dest_is() {
	echo "dest: $(cat /sys/class/scsi_host/host$1/dest)"
	[ "$(cat /sys/class/scsi_host/host$1/dest)" = "$2" ]
}

h=$(lab_srp_login 0 "") && pass "IPv4 login" || fail "IPv4 login"
check "IPv4 login: sgid is the port's GID 0" sgid_is_gid0 $h
if [ "$DRIVER" = ours ]; then
	check "IPv4 login: dest is $IP0:$SRP_PORT" dest_is $h "$IP0:$SRP_PORT"
fi
check "IPv4 logout" srp_logout $h

# src= (issue 33's coverage): the login's source address. A second
# address on rxe0's netdev as src=: the connection's local address is
# that one, not the one the route to dest picks (ib_srpt cannot tell:
# it names an RDMA/CM session by its own address); an address the host
# does not have is refused. The address goes only after the logout: a
# connection whose source address is deleted fails its sends (soft-RoCE:
# "Failed allocating skb").
src2=${IP0%.*}.2
ip addr add $src2/24 dev $NETDEV0
# cm_src_is ADDR: every RDMA/CM id on rxe0 towards the target port has
# local address ADDR, and there is one.
cm_src_is() {
	local ids
	ids=$(rdma resource show cm_id link $RXE0/1 | grep -F "dst-addr $IP0:$SRP_PORT")
	echo "$ids"
	[ -n "$ids" ] && ! echo "$ids" | grep -vqF "src-addr $1:"
}
h=$(lab_srp_login 0 "src=$src2") && pass "IPv4 login with src=$src2" ||
	fail "IPv4 login with src=$src2"
check "src=$src2: the connection's local address is $src2" cm_src_is $src2
check "src=$src2: logout" srp_logout $h
check "src=192.0.2.99 (not an address of this host) is refused" srp_add_target_fails 0 \
	"id_ext=$g,ioc_guid=$g,dest=$IP0:$SRP_PORT,src=192.0.2.99"
check "nothing left after the refused src= address" test -z "$(lab_srp_hosts)"
ip addr del $src2/24 dev $NETDEV0

# Keys whose effect shows (issue 33's coverage): max_cmd_per_lun is the
# host's cmd_per_lun and each LUN's first queue depth; target_can_queue
# caps the commands in flight to the target, below a LUN's queue depth
# here (the SCSI midlayer starts no more: /sys/block/*/inflight counts
# started requests);
# ours puts channel i on completion vector comp_vector + i, modulo the
# device's vectors, and refuses a comp_vector the device does not have
# (the in-tree 6.1 driver shows the key and places channels by NUMA node).
# depth_is H N: host H's cmd_per_lun and every LUN's queue depth are N.
depth_is() {
	local d
	echo "host$1 cmd_per_lun $(cat /sys/class/scsi_host/host$1/cmd_per_lun)"
	[ "$(cat /sys/class/scsi_host/host$1/cmd_per_lun)" = "$2" ] || return 1
	for d in /sys/class/scsi_host/host$1/device/target*/*:*:*:*; do
		echo "${d##*/} queue_depth $(cat $d/queue_depth)"
		[ "$(cat $d/queue_depth)" = "$2" ] || return 1
	done
}
# inflight_at_most H N SECS: with 16 reads queued on host H's first LUN
# (queue depth 4) for SECS s, its commands in flight reach N and never
# exceed it, counted from the SCSI midlayer's own trace events of host H
# (scsi_dispatch_cmd_start, less _error and _done: what the driver holds).
# Not /sys/block/*/inflight: the block layer walks the tags while requests
# come and go, and under TCG it counted 3 with target_can_queue 2 (boot
# 20261207-021257); a sum over two disks' reads overshot more (8 of 6,
# boot 20261206-020311). Nor a window at a fixed time after fio's start:
# on a loaded host fio needs seconds to get there (CI's run of d88f271).
# The events are ordered by the "counter" trace clock, one atomic count for
# all CPUs: a done is counted before the midlayer frees the target's slot,
# the start it makes room for after. With the default "local" clock each
# vCPU stamps its own events, and the merge can put that start first (CI's
# run of 343ee7d: a FAIL with no other cause in the scenario).
inflight_at_most() {
	local d e lost t=/sys/kernel/tracing
	: > /tmp/lf-inflight
	d=$(lab_host_disks $1 | head -1)
	mountpoint -q $t || mount -t tracefs tracefs $t
	udevadm settle
	echo 0 > $t/tracing_on
	echo 8192 > $t/buffer_size_kb
	echo counter > $t/trace_clock
	echo > $t/trace
	for e in start error done; do
		echo "host_no == $1" > $t/events/scsi/scsi_dispatch_cmd_$e/filter
		echo 1 > $t/events/scsi/scsi_dispatch_cmd_$e/enable
	done
	echo 1 > $t/tracing_on
	fio --name=cq --filename=/dev/$d --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --size=16m --time_based \
		--runtime=$3 --output-format=json --output=/tmp/cq-fio.json
	echo 0 > $t/tracing_on
	for e in start error done; do
		echo 0 > $t/events/scsi/scsi_dispatch_cmd_$e/enable
		echo 0 > $t/events/scsi/scsi_dispatch_cmd_$e/filter
	done
	awk '/ scsi_dispatch_cmd_start: / { n++; s++ }
	     / scsi_dispatch_cmd_(error|done): / { n-- }
	     n > max { max = n }
	     END { printf "%d %d\n", max, s }' $t/trace > /tmp/lf-inflight.n
	read -r max n < /tmp/lf-inflight.n
	# a lost event would make the count wrong: none may be
	lost=$(grep -h "^overrun: [1-9]" $t/per_cpu/cpu*/stats | tr '\n' ' ')
	# (a change of clock empties the buffer and its counts: last)
	echo local > $t/trace_clock
	if [ -n "$lost" ]; then
		echo "the trace lost events: $lost"
		return 1
	fi
	echo "$d: at most $max of its $n commands in flight at once (target_can_queue $2; SCSI trace events)" |
		tee /tmp/lf-inflight
	[ "$n" -gt 0 ] && [ "$max" -eq $2 ]
}
h=$(lab_srp_login 0 "max_cmd_per_lun=4,target_can_queue=2") &&
	pass "login with max_cmd_per_lun=4,target_can_queue=2" ||
	fail "login with max_cmd_per_lun=4,target_can_queue=2"
check "max_cmd_per_lun=4: cmd_per_lun and every LUN's queue depth are 4" depth_is $h 4
check "target_can_queue=2: at most 2 commands in flight to the target, and 2 reached" \
	inflight_at_most $h 2 2
lab_note "$(cat /tmp/lf-inflight)"
# queued behind 2 in flight, still no I/O past the lab's bound
# (LAB_IO_BOUND, lib.sh)
check "target_can_queue=2: longest I/O within the bound" \
	lab_fio_bound /tmp/cq-fio.json "fio randread, target_can_queue=2"
check "logout (max_cmd_per_lun, target_can_queue)" srp_logout $h
if [ "$DRIVER" = ours ]; then
	# soft-RoCE has a completion vector per possible CPU
	nvec=$(($(cut -d- -f2 /sys/devices/system/cpu/possible) + 1))
	h=$(lab_srp_login 0 "comp_vector=1,ch_count=2") &&
		pass "login with comp_vector=1,ch_count=2" || fail "login with comp_vector=1,ch_count=2"
	check "comp_vector=1: channel 0 on vector 1, channel 1 on vector $((2 % nvec)) ($nvec vectors)" sh -c \
		"v=\$(sed -n 's/^comp_vector //p' /sys/kernel/debug/ib_srp/host$h/ch0 /sys/kernel/debug/ib_srp/host$h/ch1 | tr '\n' ' '); echo \"vectors: \$v\"; [ \"\$v\" = '1 $((2 % nvec)) ' ]"
	check "logout (comp_vector)" srp_logout $h
	lab_log_mark
	check "comp_vector=$nvec (the device has $nvec) is EINVAL" srp_add_target_errno 0 "Invalid argument" \
		"id_ext=$g,ioc_guid=$g,dest=$IP0:$SRP_PORT,comp_vector=$nvec"
	check "the refused comp_vector says why" lab_log_has "comp_vector=$nvec out of range"
	check "nothing left after the refused comp_vector" test -z "$(lab_srp_hosts)"
fi

before=$(lab_srp_hosts)
check "IPv6 link-local login dest=[$ll%$idx]" srp_add_target_ok 0 "id_ext=$g,ioc_guid=$g,dest=[$ll%$idx]:$SRP_PORT"
h=$(for x in $(lab_srp_hosts); do echo "$before" | grep -qx $x || echo $x; done)
check "IPv6 login has a LUN" test "$(lab_host_disks $h | wc -l)" -ge 1
check "IPv6 login: sgid is the port's GID 0" sgid_is_gid0 $h
if [ "$DRIVER" = ours ]; then
	check "IPv6 login: dest is [$ll%$idx]:$SRP_PORT" dest_is $h "[$ll%$idx]:$SRP_PORT"
fi
[ -n "$h" ] && check "IPv6 logout" srp_logout $h

# Seen red on 6.1 (2026-12-03, boot 20261203-141436) with a throwaway
# ib_srp that took the sgid from the connection's GID for global IPv6
# destinations only: "global IPv6 login: sgid is the port's GID 0" failed
# with "sgid 2001:0db8:0000:0001:0000:0000:0000:0001, GID 0
# fe80:0000:0000:0000:2099:70ff:feab:27bb", and the GID port's in-tree ACL
# refused the same login below (ib_srpt: i_port_id
# 1a2b:3c4d:5e6f:7081:0000:0000:0000:0001, ret = -13); the IPv4 and
# link-local checks stayed green.
h=$(lab_srp_login_dest 0 "[$IP6_0]:$SRP_PORT") && pass "global IPv6 login dest=[$IP6_0]" ||
	fail "global IPv6 login dest=[$IP6_0]"
check "global IPv6 login has a LUN" test "$(lab_host_disks $h | wc -l)" -ge 1
check "global IPv6 login: sgid is the port's GID 0" sgid_is_gid0 $h
if [ "$DRIVER" = ours ]; then
	check "global IPv6 login: dest is [$IP6_0]:$SRP_PORT" dest_is $h "[$IP6_0]:$SRP_PORT"
fi
[ -n "$h" ] && check "global IPv6 logout" srp_logout $h

check "repeated keys and empty tokens" srp_add_target_ok 0 "id_ext=0x1,,ioc_guid=$g,id_ext=$g,initiator_ext=fe80000000000000,dest=$IP0:$SRP_PORT,"
check "logout" srp_logout_all

dgid=fe800000000000000000000000000001
check "srp_daemon IB CM string fails on RoCE" srp_add_target_fails 0 "id_ext=$g,ioc_guid=$g,dgid=$dgid,pkey=ffff,service_id=$g,max_it_iu_size=8260"
check "nothing left after the IB CM failure" test -z "$(lab_srp_hosts)"
check "unknown key is EINVAL" srp_add_target_errno 0 "Invalid argument" "id_ext=$g,ioc_guid=$g,dest=$IP0:$SRP_PORT,bogus=1"
if [ "$DRIVER" = ours ]; then
	check "missing dest is EINVAL" srp_add_target_errno 0 "Invalid argument" "id_ext=$g,ioc_guid=$g"
else
	check "missing dest fails" srp_add_target_fails 0 "id_ext=$g,ioc_guid=$g"
fi
check "bad hex is EINVAL" srp_add_target_errno 0 "Invalid argument" "id_ext=xyz,ioc_guid=$g,dest=$IP0:$SRP_PORT"
check "nothing left after invalid strings" test -z "$(lab_srp_hosts)"

# The target port configured by GID, on rxe0, with the lab's two LUNs.
# ib_srpt first tries the TPGs of the port's GUID name, which take an
# RDMA/CM login by its source address: rxe0's goes until the end
# (lab_srpt_up brings it back as it was).
gid0=$(cat /sys/class/infiniband/$RXE0/ports/1/gids/0)
gidport=0x$(tr -d : <<<"$gid0")
ext=1a2b3c4d5e6f7081
intree_id=0x$ext$(cut -d: -f5-8 <<<"$gid0" | tr -d :)
mapped_id=0x${ext}0000ffff$(printf %02x%02x%02x%02x ${IP0//./ })
guidtpg=$CFS/srpt/$(_lab_rxe_guid_name $RXE0)/$(_lab_rxe_guid_name $RXE0)
nluns=2
gidtpg=$CFS/srpt/$gidport/$gidport

# gid_port_acl ID: the GID port's only ACL is ID, with every LUN.
gid_port_acl() {
	local d l
	for d in $gidtpg/acls/*/lun_* $gidtpg/acls/*; do
		[ -d "$d" ] || continue
		find "$d" -maxdepth 1 -type l -delete
		rmdir "$d" || return 1
	done
	mkdir $gidtpg/acls/$1 || return 1
	for l in $gidtpg/lun/lun_*; do
		mkdir $gidtpg/acls/$1/${l##*/} || return 1
		ln -s $l $gidtpg/acls/$1/${l##*/}/ || return 1
	done
	ls $gidtpg/acls
}
# gid_port_up: rxe0's target port by GID 0, every LUN, no ACL yet.
gid_port_up() {
	local i
	lab_srpt_tpg_rm $guidtpg || return 1
	mkdir -p $gidtpg || return 1
	for ((i = 0; i < nluns; i++)); do
		mkdir $gidtpg/lun/lun_$i || return 1
		ln -s $CFS/core/rd_mcp_0/srp$i $gidtpg/lun/lun_$i/ || return 1
	done
	echo 1 > $gidtpg/enable
}
# gid_login FORM DEST: a login through the GID port with initiator_ext; a
# LUN, sgid GID 0, logout.
gid_login() {
	local h before
	before=$(lab_srp_hosts)
	if ! srp_add_target_ok 0 "id_ext=$g,ioc_guid=$g,initiator_ext=$ext,dest=$2"; then
		fail "GID port, in-tree ACL: $1 login dest=$2"
		lab_log_since | grep -iE 'srp|reject' | tail -5
		return
	fi
	pass "GID port, in-tree ACL: $1 login dest=$2"
	h=$(for x in $(lab_srp_hosts); do echo "$before" | grep -qx $x || echo $x; done)
	check "GID port: $1 login has $nluns LUNs" srp_wait_disks "$h" $nluns
	check "GID port: $1 login: sgid is the port's GID 0" sgid_is_gid0 $h
	check "GID port: $1 logout" srp_logout $h
}
# gid_port_rm: the GID port goes (ib_srpt disables rxe0's port with it).
gid_port_rm() {
	lab_srpt_tpg_rm $gidtpg && rmdir $CFS/srpt/$gidport
}

lab_log_mark
check "rxe0's target port by GID $gidport, $nluns LUNs" gid_port_up
check "GID port: the only ACL is $mapped_id (IPv4-mapped GID form)" gid_port_acl $mapped_id
check "GID port: that ACL refuses the IPv4 login" srp_add_target_fails 0 \
	"id_ext=$g,ioc_guid=$g,initiator_ext=$ext,dest=$IP0:$SRP_PORT"
check "nothing left after the refused login" test -z "$(lab_srp_hosts)"
check "GID port: the only ACL is $intree_id (in-tree form)" gid_port_acl $intree_id
gid_login IPv4 "$IP0:$SRP_PORT"
gid_login "global IPv6" "[$IP6_0]:$SRP_PORT"
gid_login "IPv6 link-local" "[$ll%$idx]:$SRP_PORT"
# io_class=ff00 (SRP rev. 10) puts the two halves of the port identifiers
# the other way round: the in-tree ACL refuses it, one with the halves
# swapped takes it.
r10_id=0x$(cut -d: -f5-8 <<<"$gid0" | tr -d :)$ext
check "GID port, in-tree ACL: an io_class=ff00 login is refused" srp_add_target_fails 0 \
	"id_ext=$g,ioc_guid=$g,initiator_ext=$ext,io_class=ff00,dest=$IP0:$SRP_PORT"
check "nothing left after the refused rev. 10 login" test -z "$(lab_srp_hosts)"
check "GID port: the only ACL is $r10_id (rev. 10 form)" gid_port_acl $r10_id
check "GID port, rev. 10 ACL: an io_class=ff00 login" srp_add_target_ok 0 \
	"id_ext=$g,ioc_guid=$g,initiator_ext=$ext,io_class=ff00,dest=$IP0:$SRP_PORT"
check "GID port, rev. 10 ACL: the login has $nluns LUNs" srp_wait_disks "$(lab_srp_hosts | tail -1)" $nluns
check "GID port, rev. 10 ACL: logout" srp_logout_all
check "GID port removed" gid_port_rm

# topspin_workarounds (issue 33's coverage): a target whose ioc_guid has a
# Topspin/Cisco OUI (00:05:ad) gets the initiator port identifier those
# targets want, eight zero bytes then the local node GUID, unless the
# module parameter is 0. ib_srpt takes a login only with its own service
# GUID as ioc_guid and id_ext, so it is reloaded with a Topspin one, and
# the GID port's only ACL is the Topspin form.
tsg=0005ad0000c0ffee
ts_id=0x0000000000000000$(tr -d : < /sys/class/infiniband/$RXE0/node_guid)
check "ib_srpt reloaded with service GUID $tsg" eval \
	"tools_srpt_down && modprobe ib_srpt srpt_service_guid=0x$tsg && lab_srpt_up $nluns"
check "GID port up again" gid_port_up
check "GID port: the only ACL is $ts_id (Topspin form)" gid_port_acl $ts_id
check "topspin_workarounds=1: a login to ioc_guid $tsg is taken" srp_add_target_ok 0 \
	"id_ext=$tsg,ioc_guid=$tsg,initiator_ext=$ext,dest=$IP0:$SRP_PORT"
check "topspin_workarounds=1: the login has $nluns LUNs" srp_wait_disks "$(lab_srp_hosts | tail -1)" $nluns
check "topspin_workarounds=1: logout" srp_logout_all
check "ib_srp reloads with topspin_workarounds=0" eval \
	"lab_unload ib_srp && lab_srp_load topspin_workarounds=0"
check "topspin_workarounds=0: the Topspin-form ACL refuses the login" srp_add_target_fails 0 \
	"id_ext=$tsg,ioc_guid=$tsg,initiator_ext=$ext,dest=$IP0:$SRP_PORT"
check "nothing left after the refused login" test -z "$(lab_srp_hosts)"
check "GID port removed again" gid_port_rm
check "ib_srpt back with its default service GUID" eval \
	"tools_srpt_down && lab_srpt_up $nluns"
srp_acl_v6 0
check "ib_srp unloads" lab_unload ib_srp
