# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# RDMA device removal under an iSER session: rxe1 is deleted while a
# session runs over it; the session on rxe0 keeps working, the one on rxe1
# fails over to recovery without hang or splat. Then iscsid is stopped and
# rxe0 deleted under its session: with nobody in user space to tear the
# connection down, the removal must still return and free the device.
# iscsid comes back, logout and unload work.
# It gets a boot of its own: both rxe devices are gone afterwards.
#
# lab-drivers: ours intree
# lab-provokes: iscsi-conn wc-error (the RDMA device removed under its sessions)
# lab-boot: pathcut
# lab-last
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load

# Issue 32 item 5: ib_iser unloaded while a connection still resolves its
# address. The portal is routed over a veth pair of its own whose far end
# has no such address, so its ARP goes unanswered and the resolution
# waits for its timeout (ISER_RESOLVE_TIMEOUT_MS, 1 s); iscsiadm's
# discovery holds the endpoint meanwhile. Nothing then ends the CM id but
# the unload itself: left alive, its resolution's end ran the unloaded
# module's handler.
UNL_IP=203.0.113.9
ip link add unl0 type veth peer name unl1
ip link set unl0 up
ip link set unl1 up
ip route add $UNL_IP/32 dev unl0
lab_log_mark
iscsiadm -m discovery -t st -p $UNL_IP:$ISER_PORT -I iser >/dev/null 2>&1 &
unl_disc=$!
unl_resolving() { ip neigh show $UNL_IP dev unl0 | grep -q INCOMPLETE; }
# rmmod, retried for 0.8 s: iscsiadm holds the module only while one of
# its requests runs.
unl_unload() {
	local end=$((${EPOCHREALTIME/./} + 800000))
	until rmmod ib_iser 2>/dev/null; do
		[ ${EPOCHREALTIME/./} -lt $end ] || return 1
		sleep 0.02
	done
}
check "unload during resolution: the address resolution is pending" lab_wait 5 unl_resolving
check "unload during resolution: ib_iser unloads" unl_unload
[ "$DRIVER" = ours ] &&
	check "unload during resolution: the held endpoint was disconnected" \
		lab_log_has "unloading: endpoint [0-9]+ was not disconnected by iscsid"
sleep 2
check "unload during resolution: no oops after the resolution's timeout" \
	lab_log_lacks "BUG:|Oops|general protection"
wait $unl_disc
ip link del unl0
check "ib_iser loads again" lab_iser_load
check "login on $IP0" iser_login $IP0
check "login on $IP1" iser_login $IP1
check "2 disks on $IP1" iser_wait_disks $IP1 2
d0=$(iser_disks $IP0 | head -1)
s1=$(iser_session $IP1)
check "rdma link delete $RXE1 returns" timeout 120 rdma link delete $RXE1
check "session over $RXE1 left LOGGED_IN" lab_wait 30 sh -c \
	"! grep -q LOGGED_IN /sys/class/iscsi_session/$s1/state"
check "I/O on $RXE0 unaffected" lab_fio_verify "$d0" --size=8m
s0=$(iser_session $IP0)
pkill -x iscsid
check "iscsid stopped" lab_wait 20 sh -c "! pgrep -x iscsid"
check "rdma link delete $RXE0 returns without iscsid" \
	timeout 120 rdma link delete $RXE0
check "session over $RXE0 left LOGGED_IN" lab_wait 30 sh -c \
	"! grep -q LOGGED_IN /sys/class/iscsi_session/$s0/state"
# A restarted iscsid takes failed sessions over and tries to reconnect
# them for ever (node.session.reopen_max 0), refusing to log them out
# meanwhile ("trying to reconnect: try again later"); with reopen_max 1
# it gives up after one attempt.
iscsiadm -m node -o update -n node.session.reopen_max -v 1
lab_iscsid_up
logout_done() {
	iser_logout_all --none-ok && return 0
	sleep 2
	return 1
}
check "no iser session left (logout retried)" lab_wait 150 logout_done
check "ib_iser unloads after device removal" iser_unload
