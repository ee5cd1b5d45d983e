# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER scenario helpers (sourced by tests/lab/scenarios/iser_*.sh after
# /lab/lib.sh). Work with DRIVER=ours and DRIVER=intree alike.

ISER_PORT=3260

# iser_discover IP: SendTargets over iSER; succeeds if our target is listed.
iser_discover() {
	iscsiadm -m discovery -t st -p "$1:$ISER_PORT" -I iser | grep -q "$ISER_IQN"
}

# iser_login IP: log in to $ISER_IQN through IP; a scenario that runs first
# in its boot has no node record yet, so discover one first.
iser_login() {
	iscsiadm -m node -T "$ISER_IQN" -p "$1:$ISER_PORT" -I iser >/dev/null 2>&1 ||
		iser_discover "$1"
	iscsiadm -m node -T "$ISER_IQN" -p "$1:$ISER_PORT" -I iser --login
}
iser_logout() { iscsiadm -m node -T "$ISER_IQN" -p "$1:$ISER_PORT" -I iser --logout; }
# iser_logout_all [--none-ok]: log out of every session; fails if iscsiadm
# fails or a session is left. iscsiadm exits 21 (no session found) when
# there is nothing to log out: a failure for a caller that has sessions to
# end (they vanished behind its back), success with --none-ok (a caller
# that retries until none is left).
iser_logout_all() {
	local out rc
	out=$(iscsiadm -m node --logoutall=all 2>&1)
	rc=$?
	[ $rc -eq 21 ] && [ "${1:-}" = --none-ok ] && rc=0
	if [ $rc -ne 0 ]; then
		echo "$out"
		echo "iscsiadm --logoutall=all: exit $rc"
	fi
	if ! iser_no_session; then
		echo "sessions left after logout:"
		iscsiadm -m session 2>&1
		return 1
	fi
	return $rc
}
iser_no_session() { ! iscsiadm -m session 2>/dev/null | grep -q .; }

# iser_session IP: sysfs session name (sessionN) of the session to IP.
iser_session() {
	local c s
	for c in /sys/class/iscsi_connection/connection*; do
		[ "$(cat "$c/persistent_address" 2>/dev/null)" = "$1" ] || continue
		s=${c##*/connection}
		echo "session${s%%:*}"
		return 0
	done
	return 1
}

# iser_disks IP: block devices of the session to IP, in LUN order.
iser_disks() {
	local s
	s=$(iser_session "$1") || return 1
	lab_disks_in /sys/class/iscsi_session/$s/device
}

# iser_drop_disks IP: delete the SCSI devices of the session to IP.
iser_drop_disks() {
	local d
	for d in $(iser_disks "$1"); do
		echo 1 > /sys/block/$d/device/delete
	done
}

# iser_host IP: SCSI host number of the session to IP.
iser_host() {
	local s
	s=$(iser_session "$1") || return 1
	readlink -f /sys/class/iscsi_session/$s/device | sed -n 's|.*/host\([0-9]*\)/.*|\1|p'
}

# iser_wait_disks IP N: wait until the session to IP shows N disks.
_iser_ndisks_ge() { [ "$(iser_disks "$1" | wc -l)" -ge "$2" ]; }
iser_wait_disks() { lab_wait 60 _iser_ndisks_ge "$1" "$2"; }

# iser_one_session: the start of a one-session scenario: network, LIO with
# 2 LUNs, iscsid, ib_iser loaded, logged in to $IP0 with both disks there
# (each step a check of its own).
iser_one_session() {
	lab_net_up
	lab_iser_target_up 2
	lab_iscsid_up
	check "ib_iser loads" lab_iser_load
	check "login over iSER on $IP0" iser_login $IP0
	check "session shows 2 disks" iser_wait_disks $IP0 2
}

# iser_stat NAME: sum of an ib_iser per-connection counter over sessions
# (iscsiadm -m session -s shows the transport's custom statistics).
iser_stat() {
	iscsiadm -m session -s 2>/dev/null |
		awk -v k="$1" '$1 == k":" { n += $2 } END { print n + 0 }'
}

# iser_unload: remove the initiator once no session is left.
iser_unload() { lab_unload ib_iser; }

# iser_check_bg NAME PID: record NAME as passed if background job PID (a
# child of this shell, so not run through check's subshell) exits 0.
iser_check_bg() {
	if wait "$2"; then
		pass "$1"
	else
		fail "$1" "background job exit $?"
	fi
}

# iser_cut IP / iser_uncut: drop (or stop dropping) RoCEv2 packets (UDP
# 4791) to and from IP, a silent path loss the QP does not see by itself.
iser_cut() {
	nft add table inet iser_cut
	nft add chain inet iser_cut out '{ type filter hook output priority 0; }'
	nft add chain inet iser_cut in '{ type filter hook input priority 0; }'
	nft add rule inet iser_cut out ip daddr "$1" udp dport 4791 counter drop
	nft add rule inet iser_cut in ip daddr "$1" udp dport 4791 counter drop
}
# iser_cut_dropped: packets the cut has dropped so far (0 when soft-RoCE
# loops the traffic back inside rxe, past netfilter).
iser_cut_dropped() {
	nft list table inet iser_cut 2>/dev/null |
		awk '/counter packets/ { for (i = 1; i < NF; i++) if ($i == "packets") n += $(i + 1) }
		     END { print n + 0 }'
}
iser_uncut() { nft delete table inet iser_cut 2>/dev/null; true; }

# _iser_inv_counts: "regs local remote" summed over sessions, from one
# snapshot of the counters.
_iser_inv_counts() {
	iscsiadm -m session -s 2>/dev/null | awk '
		$1 == "regs:" { r += $2 } $1 == "invs:" { l += $2 }
		$1 == "remote_invs:" { v += $2 } END { print r + 0, l + 0, v + 0 }'
}
_iser_inv_even() {
	local regs invs rinv
	read -r regs invs rinv < <(_iser_inv_counts)
	[ "$regs" -gt 0 ] && [ "$regs" = $((invs + rinv)) ]
}

# iser_inv_balance: every fast registration was invalidated exactly once,
# locally or by the target. Commands still in flight (udev reads a disk
# fio closed after writing) are registered but not yet invalidated, so wait
# for udev and then for the counters to meet; a registration that is never
# invalidated keeps them apart and fails.
iser_inv_balance() {
	local first rc
	first=$(_iser_inv_counts)
	udevadm settle >/dev/null 2>&1
	lab_wait 20 _iser_inv_even
	rc=$?
	echo "regs local remote: first $first, last $(_iser_inv_counts)"
	return $rc
}

# A second iSCSI target (one LUN) behind the same iSER portals.
ISER_IQN2=$ISER_IQN-b

iser_target2_up() {
	local tpg=$CFS/iscsi/$ISER_IQN2/tpgt_1 acl ip
	lab_iser_target_up 2
	[ -e $tpg/enable ] && [ "$(cat $tpg/enable)" = 1 ] && return 0
	_lab_backstore iscsib0 0 3
	mkdir -p $tpg/lun/lun_0
	ln -s $CFS/core/rd_mcp_0/iscsib0 $tpg/lun/lun_0/ 2>/dev/null
	acl=$tpg/acls/$(lab_initiator_iqn)
	mkdir -p $acl/lun_0
	ln -s $tpg/lun/lun_0 $acl/lun_0/ 2>/dev/null
	echo 0 > $tpg/attrib/authentication
	echo 1 > $tpg/enable
	for ip in $IP0 $IP1; do
		mkdir -p $tpg/np/$ip:3260
		echo 1 > $tpg/np/$ip:3260/iser
	done
}

# iser_target_disks IQN: block devices of the sessions to target IQN.
iser_target_disks() {
	local s dirs=()
	for s in /sys/class/iscsi_session/session*; do
		[ "$(cat $s/targetname 2>/dev/null)" = "$1" ] && dirs+=("$s/device")
	done
	[ ${#dirs[@]} -eq 0 ] || lab_disks_in "${dirs[@]}"
}
_iser_tdisks_ge() { [ "$(iser_target_disks "$1" | wc -l)" -ge "$2" ]; }

# Many one-portal iSCSI targets without LUNs, listed by SendTargets only
# (demo-mode discovery): a long SendTargets text response. Their portal
# is a port of its own, $IP0:$ISER_MANY_PORT: after they were added to and
# removed from the lab's $IP0:3260 portal, LIO no longer received login
# requests for targets created later on that portal.
ISER_MANY=$ISER_IQN-many-targets-to-make-a-long-sendtargets-response
ISER_MANY_PORT=3261

# iser_many_targets_up N: targets $ISER_MANY-1..N.
iser_many_targets_up() {
	local i tpg np
	lab_iser_target_up 2
	for ((i = 1; i <= $1; i++)); do
		tpg=$CFS/iscsi/$ISER_MANY-$i/tpgt_1
		np=$tpg/np/$IP0:$ISER_MANY_PORT
		mkdir -p $np || return 1
		echo 1 > $np/iser || return 1
		echo 0 > $tpg/attrib/authentication
		echo 1 > $tpg/enable || return 1
	done
}

# iser_many_targets_down: remove them and their node records.
iser_many_targets_down() {
	local t
	for t in $CFS/iscsi/$ISER_MANY-*; do
		[ -d "$t" ] || continue
		echo 0 > $t/tpgt_1/enable
		rmdir $t/tpgt_1/np/* $t/tpgt_1 $t
	done
	# a new discovery deletes the records of targets no longer listed
	iscsiadm -m discovery -t st -p "$IP0:$ISER_PORT" -I iser >/dev/null 2>&1
	! iscsiadm -m node 2>/dev/null | grep -q -- "$ISER_MANY"
}

# iser_discover_many IP N: SendTargets over iSER lists $ISER_MANY-1..N at
# its portal and nothing else of that name, and $ISER_IQN: the text of a
# response longer than a receive buffer's inline part (ib_iser: 384 bytes)
# arrived intact, not only in one piece. One target may be listed twice:
# LIO 6.1 resumes a SendTargets response in its next text PDU after the
# bytes it believes sent, and counts a target's TargetName once per portal
# although it sent it once, so with $ISER_IQN on two portals it starts
# that PDU a name early and repeats the target at the boundary (the 57th
# long-named one here).
iser_discover_many() {
	local out want got i
	out=$(iscsiadm -m discovery -t st -p "$1:$ISER_PORT" -I iser) || return 1
	want=$(for ((i = 1; i <= $2; i++)); do
		echo "$1:$ISER_MANY_PORT,1 $ISER_MANY-$i"
	done | sort)
	got=$(echo "$out" | grep -e "-many-" | sort -u)
	echo "$(echo "$got" | grep -c .) distinct lines name a long-named target, $2 expected"
	if [ "$got" != "$want" ]; then
		diff <(echo "$want") <(echo "$got") | head -6
		return 1
	fi
	echo "$out" | grep -q " $ISER_IQN\$"
}

# iser_conn_attr IP ATTR: an iscsi_connection attribute of the session to IP.
iser_conn_attr() {
	local c
	for c in /sys/class/iscsi_connection/connection*; do
		[ "$(cat "$c/persistent_address" 2>/dev/null)" = "$1" ] || continue
		cat "$c/$2"
		return
	done
	return 1
}
