# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# add_target forms: IPv6 link-local dest with scope, repeated keys and
# empty tokens, srp_daemon's IB CM strings (must fail clearly on RoCE),
# malformed strings (EINVAL, nothing left behind). Every RDMA/CM login's
# sgid, the source of its initiator port identifier, is the port's GID at
# index 0 as with the in-tree driver (not the IPv4-mapped GID the
# connection uses); ours also shows the login's dest= in "dest".
#
# lab-drivers: ours intree
. /lab/lib-srp.sh

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

before=$(lab_srp_hosts)
check "IPv6 link-local login dest=[$ll%$idx]" srp_add_target_ok 0 "id_ext=$g,ioc_guid=$g,dest=[$ll%$idx]:$SRP_PORT"
h=$(for x in $(lab_srp_hosts); do echo "$before" | grep -qx $x || echo $x; done)
check "IPv6 login has a LUN" test "$(lab_host_disks $h | wc -l)" -ge 1
check "IPv6 login: sgid is the port's GID 0" sgid_is_gid0 $h
if [ "$DRIVER" = ours ]; then
	check "IPv6 login: dest is [$ll%$idx]:$SRP_PORT" dest_is $h "[$ll%$idx]:$SRP_PORT"
fi
[ -n "$h" ] && check "IPv6 logout" srp_logout $h

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
check "ib_srp unloads" lab_unload ib_srp
