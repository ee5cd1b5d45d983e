# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER: the target learns that a connection ended even when the DREQ had
# to wait for the path (issue 40, "tgtd stops"). One session against LIO
# on cuttable path 0 (lib-path.sh); the path drops its RoCE packets where
# they arrive (lab_path_cut 0: lost, not held), and the session is logged
# out meanwhile: the logout ends while the path is cut (nothing of it
# waits for the fabric), and its DREQ is lost. Ours keeps the released
# connection's RDMA/CM id until the CM has finished the disconnect
# (drivers/infiniband/ulp/iser/conn.c), so the IB CM resends the DREQ:
#  - while the path is cut, the id is still there (rdma resource show
#    cm_id: ib_iser's id to the portal);
#  - once the packets flow, it goes within ISER_LINGER_BACK s (a DREQ
#    retry comes every 6.1 s on RoCE), the CM having answered
#    (tracepoint iser_cm_id_destroy: cm_closed=1), and LIO no longer has a
#    session of ours;
#  - a second logout under a cut, then ib_iser unloaded while the path is
#    still cut: the unload ends every linger at once and returns; no id of
#    ours is left, the kernel reports nothing. After the restore ib_iser
#    loads and logs in again.
# Before the fix ours destroyed the id as soon as the connection was
# released: on main 20007ee (boot 20261206-191721) both "lingers" checks,
# cm_closed=1 (no such tracepoint) and "LIO has no session of ours left"
# failed: LIO, too, still had the cut session 30 s after the restore.
# Green with the fix (boot 20261206-191606: the id went 4 s after the
# restore, 6.4 s after its release, cm_closed=1; unload under the cut
# returned).
#
# Ours only: the in-tree ib_iser also keeps the id until the CM reports
# the end of the disconnect, with no bound of its own, and its unload
# waits for that (up to the CM's 98 s of DREQ retries), so the unload
# under a cut is not a fair check of it.
#
# lab-drivers: ours
# lab-provokes: iscsi-conn sq-stall rxe wc-error (a path cut under a logout)
# lab-boot: pathcut
source /lab/lib-iser.sh
source /lab/lib-path.sh

ISER_LINGER_BACK=20	# s from the restore to the id's destruction
ip=${PATH_IPT[0]}
tr=/sys/kernel/tracing

# linger_ids: ib_iser's RDMA/CM ids to the portal on path 0.
linger_ids() { rdma resource show cm_id 2>/dev/null | grep -F '[ib_iser]' | grep -F "dst-addr $ip:3260"; }
linger_has_id() { [ -n "$(linger_ids)" ]; }
linger_no_id() { [ -z "$(linger_ids)" ]; }

# lio_no_session: LIO has no active session of the lab initiator (else
# prints the first lines of what it has).
lio_no_session() {
	local f
	for f in $CFS/iscsi/$ISER_IQN/tpgt_1/acls/*/info; do
		grep -q 'No active iSCSI Session' "$f" || { head -3 "$f"; return 1; }
	done
}

# bg_ended PID: background job PID has exited (a zombie counts).
bg_ended() {
	! kill -0 "$1" 2>/dev/null ||
		[ "$(awk '{ print $3 }' /proc/$1/stat 2>/dev/null)" = Z ]
}

# logout_under_cut NAME: log in on path 0, cut it, log out; the logout
# must end while the path is cut.
logout_under_cut() {
	local n=$1 lpid
	check "$n: login on $ip" iser_login $ip || return 1
	check "$n: session shows its disks" iser_wait_disks $ip 1
	lab_path_cut 0
	iser_logout $ip >/tmp/linger-logout.out 2>&1 &
	lpid=$!
	if ! check "$n: the logout ends while the path is cut" \
		lab_wait 60 bg_ended $lpid; then
		kill $lpid 2>/dev/null
		return 1
	fi
	wait $lpid
	lab_note "$n: logout ended with $?"
	iser_no_session || iser_logout_all --none-ok
	# the release is a work item: give it its moment
	sleep 2
}

check "cuttable paths up" lab_path_up
check "iSER portals on both paths" lab_path_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser -o new >/dev/null 2>&1
{ echo 1 > $tr/events/ib_iser/iser_cm_id_destroy/enable; } 2>/dev/null
echo > $tr/trace

# 1. The DREQ waits for the path; the id is kept and goes once it is back.
lab_log_mark
if logout_under_cut "cut logout"; then
	check "cut logout: the connection's cm_id lingers while the path is cut" \
		linger_has_id
	linger_ids
	t=$SECONDS
	lab_path_restore 0
	if check "cut logout: the cm_id goes within $ISER_LINGER_BACK s of the restore" \
		lab_wait $ISER_LINGER_BACK linger_no_id; then
		lab_note "cut logout: cm_id gone $((SECONDS - t)) s after the restore"
	else
		linger_ids
	fi
	grep iser_cm_id_destroy $tr/trace | tail -3
	check "cut logout: the CM finished the disconnect first (cm_closed=1)" \
		sh -c "grep iser_cm_id_destroy $tr/trace | tail -1 | grep -q 'cm_closed=1'"
	check "cut logout: LIO has no session of ours left" lab_wait 30 lio_no_session
fi
lab_path_restore 0

# 2. Unload while an id lingers, the path still cut.
echo > $tr/trace
if logout_under_cut "unload under cut"; then
	check "unload under cut: the connection's cm_id lingers" linger_has_id
	check "unload under cut: ib_iser unloads while the path is cut" \
		timeout 60 modprobe -r ib_iser
	check "unload under cut: no cm_id of ib_iser left" linger_no_id
fi
lab_path_restore 0
check "no kernel warning" lab_log_lacks 'WARNING:|BUG:|general protection|cm_destroy_id_wait_timeout'

check "ib_iser loads again" lab_iser_load
check "login after the restore" iser_login $ip
check "session shows its disks" iser_wait_disks $ip 1
check "logout" iser_logout $ip
check "no iser session left" iser_no_session
check "ib_iser unloads" iser_unload
