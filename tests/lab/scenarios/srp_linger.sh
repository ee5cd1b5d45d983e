# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# SRP: does LIO's ib_srpt learn that a channel ended when the initiator's
# DREQ had to wait for the path? (issue 31; issue 40 found for iSER that
# destroying a released connection's CM id at once cancels the CM's DREQ
# resends, so the target never hears of the end.) The in-tree ib_srp
# first, then ours in its place (insmod from the payload, like
# srp_txcut_nokeepalive), in one boot. Each: one login over cuttable path
# 0 (lib-path.sh), the path drops its RoCE packets where they arrive
# (lab_path_cut 0: lost, not held), and the rport is deleted meanwhile:
# the logout IU and the DREQ are lost. The path is restored LG_CUT_SECS
# after the delete; then:
#  - within LG_BACK s of the restore the target end of path 0 must have no
#    RC QP of ib_srpt left (a DREQ resend reached it, ib_srpt answered and
#    released the channel) - else ib_srpt keeps a stale channel, with its
#    LIO session, for as long as the initiator does not log in again;
#    recorded for the in-tree driver, checked for ours;
#  - ours kept the deleted login's RDMA/CM ids while the path was cut (the
#    CM resends the DREQ, about every 6.1 s on RoCE) and destroys them
#    once the CM has finished the disconnect, within LG_BACK s;
#  - a new login over path 0 works (MULTICHAN_SINGLE closes what is left)
#    and leaves only its own channels on the target;
#  - ours, deleted again under a cut, unloads while the path is still cut
#    within 10 s (the unload ends every linger at once); after the restore
#    it loads and logs in again.
# Red on main 2e228d9 (ours alone, boot 20261206-211005): ib_srpt still
# had both channels 30 s after the restore. The cheap part of this (a
# removal at dev_loss_tmo under a cut, the linger, ib_srpt letting go) is
# srp_pathcut's, in the default run; this needs both drivers in one boot
# and runs in the in-tree comparison (tests/run-all --compare, or
# tests/lab/run --driver intree srp_linger).
#
# lab-drivers: intree
# lab-boot: pathcut
# lab-provokes: scsi-eh srp-path srp-reconnect (a path cut under a logout: the DREQ lost)
. /lab/lib-srp.sh
. /lab/lib-path.sh
. /lab/lib-time.sh

: "${LG_CUT_SECS:=3}"
: "${LG_BACK:=20}"

# lg_tgt_qps: ib_srpt's RC QPs on the target end of path 0.
lg_tgt_qps() { rdma resource show qp link ${PATH_RXET[0]}/1 2>/dev/null | grep -cw RC; }
lg_tgt_none() { [ "$(lg_tgt_qps)" = 0 ]; }
lg_host_gone() { [ ! -e /sys/class/scsi_host/host$h0 ]; }
# lg_own_ids: ib_srp's RDMA/CM ids to the target end of path 0.
lg_own_ids() { rdma resource show cm_id 2>/dev/null | grep -F '[ib_srp]' | grep -F "dst-addr ${PATH_IPT[0]}:"; }
lg_own_none() { [ -z "$(lg_own_ids)" ]; }
lg_srp_gone() { [ ! -e /sys/module/ib_srp ]; }

# lg_load_ours: the in-tree ib_srp out, ours in from the payload.
lg_load_ours() {
	rmmod ib_srp || return 1
	modprobe -a scsi_transport_srp ib_cm rdma_cm || return 1
	insmod /lab/ko/rdi_core.ko || return 1
	insmod /lab/ko/ib_srp.ko
}

# lg_delete_under_cut WHO: login, rx cut, rport delete, restore; ib_srpt's
# and (ours) ib_srp's side of the disconnect.
lg_delete_under_cut() {
	local who=$1 own
	h0=$(lab_path_srp_login 0 "") && pass "$who: login over path 0" ||
		fail "$who: login over path 0"
	check "$who: path 0 has its LUNs" srp_wait_disks "$h0" 2
	lab_note "$who: target end of path 0: $(lg_tgt_qps) RC QPs of ib_srpt"
	check "$who: ib_srpt has the login's channels on path 0" test "$(lg_tgt_qps)" -ge 1
	# No command outstanding at the delete (udev reads the new disks):
	# the removal would wait for it (docs/srp.md, "rport delete under a
	# cut").
	udevadm settle
	lab_log_mark
	lab_path_cut 0
	LAB_T0=$EPOCHREALTIME
	echo 1 > /sys/class/srp_remote_ports/port-$h0:1/delete
	lab_watch 60 lg_host_gone
	lab_note "$who: rport deleted under an rx cut: host$h0 gone after ${LAB_AT[lg_host_gone]} s"
	check "$who: rport delete under the cut ends (${LAB_AT[lg_host_gone]} s)" lg_host_gone
	sleep "$LG_CUT_SECS"
	own=$(lg_own_ids | wc -l)
	lab_note "$who: before the restore: target end of path 0 has $(lg_tgt_qps) RC QPs, ib_srp $own RDMA/CM ids to it"
	[ "$who" = ours ] &&
		check "ours: the deleted login's CM ids linger while the path is cut ($own)" test "$own" -ge 1
	lab_path_restore 0
	LAB_T0=$EPOCHREALTIME
	lab_watch $((LG_BACK + 10)) lg_tgt_none lg_own_none
	lab_note "$who: restored: ib_srpt's RC QPs on path 0 gone after ${LAB_AT[lg_tgt_none]} s ($(lg_tgt_qps) left), ib_srp's ids after ${LAB_AT[lg_own_none]} s"
	lab_log_since | grep -E "ib_srpt|host$h0" | head -10
	if [ "$who" = ours ]; then
		check "ours: ib_srpt let go of the deleted login's channels within $LG_BACK s of the restore (${LAB_AT[lg_tgt_none]} s)" \
			lab_within "${LAB_AT[lg_tgt_none]}" "$LG_BACK"
		check "ours: ib_srp destroyed the deleted login's CM ids within $LG_BACK s of the restore (${LAB_AT[lg_own_none]} s)" \
			lab_within "${LAB_AT[lg_own_none]}" "$LG_BACK"
	else
		pass "in-tree, recorded: ib_srpt let go of the deleted login's channels after ${LAB_AT[lg_tgt_none]} s (ours' bound $LG_BACK s not applied)"
	fi
	h0=$(lab_path_srp_login 0 "") && pass "$who: login over path 0 again" ||
		fail "$who: login over path 0 again"
	check "$who: path 0 has its LUNs again" srp_wait_disks "$h0" 2
	nch=$(cat /sys/class/scsi_host/host$h0/ch_count 2>/dev/null || echo 1)
	check "$who: ib_srpt has only the new login's $nch channel(s) on path 0" \
		lab_wait 20 sh -c "[ \$(rdma resource show qp link ${PATH_RXET[0]}/1 | grep -cw RC) -eq $nch ]"
}

check "cuttable paths up" lab_path_up
check "SRP target ports on both paths" lab_path_srpt_up 2

# --- the in-tree ib_srp
check "in-tree ib_srp loads (from kernel/)" lab_srp_load
lg_delete_under_cut intree
check "intree: logout" srp_logout_all

# --- ours
check "ours loaded in place of the in-tree ib_srp" lg_load_ours
for m in ib_srp rdi_core; do
	check "loaded $m is ours, this build (build ID)" lab_module_is_this_build $m
done
lg_delete_under_cut ours
# Deleted again under a cut, then unloaded while the path is still cut.
udevadm settle
lab_path_cut 0
LAB_T0=$EPOCHREALTIME
echo 1 > /sys/class/srp_remote_ports/port-$h0:1/delete
lab_watch 60 lg_host_gone
check "ours: second rport delete under the cut ends (${LAB_AT[lg_host_gone]} s)" lg_host_gone
lab_note "ours: under the cut: ib_srp has $(lg_own_ids | wc -l) RDMA/CM ids to path 0; unloading"
LAB_T0=$EPOCHREALTIME
sh -c "rmmod ib_srp && rmmod rdi_core" >/tmp/linger-unload.out 2>&1 &
upid=$!
lab_watch 60 lg_srp_gone
lab_note "ours: ib_srp unloaded under the cut after ${LAB_AT[lg_srp_gone]} s ($(head -c 200 /tmp/linger-unload.out))"
check "ours: ib_srp unloads while the path is still cut, within 10 s (${LAB_AT[lg_srp_gone]} s)" \
	lab_within "${LAB_AT[lg_srp_gone]}" 10
lab_path_restore 0
wait $upid
check "ours: no RDMA/CM id of ib_srp left" lg_own_none
check "ours loads again" sh -c "insmod /lab/ko/rdi_core.ko && insmod /lab/ko/ib_srp.ko"
h0=$(lab_path_srp_login 0 "") && pass "ours: login over path 0 after the reload" ||
	fail "ours: login over path 0 after the reload"
check "ours: path 0 has its LUNs after the reload" srp_wait_disks "$h0" 2
check "ours: logout" srp_logout_all
check "no task blocked for 120 s" lab_log_lacks "blocked for more than"
check "ours unloads" sh -c "rmmod ib_srp && rmmod rdi_core"
