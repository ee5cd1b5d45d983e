# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Rogue iSER target helpers (sourced after /lab/lib.sh): run rogue-iser
# (tests/rogue-iser/) on $IP0 at port $ROGUE_PORT in one of its modes and
# log in to it with iscsiadm -I iser; what it saw: lab_target_saw.
. /lab/lib-iser.sh

ROGUE_PORT=3261
ROGUE_IQN=iqn.2026-12.org.example:rogue
ROGUE_LOG=/tmp/rogue-iser.log
ROGUE_DEV=
: "${ROGUE_BIN:=/lab/tools/rogue-iser}"

rogue_have() { lab_target_have "$ROGUE_BIN"; }

# rogue_start MODE [OPTIONS...]: (re)start the rogue target.
rogue_start() {
	local mode=$1
	shift
	lab_target_start $ROGUE_LOG "$ROGUE_BIN" -a $IP0 -p $ROGUE_PORT "$@" "$mode"
}

# rogue_session: sysfs name of the session to the rogue target.
rogue_session() {
	local s
	for s in /sys/class/iscsi_session/session*; do
		[ "$(cat "$s/targetname" 2>/dev/null)" = "$ROGUE_IQN" ] &&
			{ echo "${s##*/}"; return 0; }
	done
	return 1
}

_rogue_disk() {
	local s
	s=$(rogue_session) || return 1
	ROGUE_DEV=$(lab_disks_in /sys/class/iscsi_session/$s/device | head -1)
	[ -n "$ROGUE_DEV" ]
}

_rogue_iscsiadm() {
	iscsiadm -m node -T $ROGUE_IQN -p $IP0:$ROGUE_PORT -I iser "$@"
}

# rogue_login: a node record for the rogue target (one login attempt, a
# 10 s login timeout, a 20 s replacement timeout), log in, wait for its
# disk; sets ROGUE_DEV.
rogue_login() {
	local kv
	ROGUE_DEV=
	_rogue_iscsiadm -o new >/dev/null || return 1
	for kv in node.session.initial_login_retry_max=1 \
		  node.conn[0].timeo.login_timeout=10 \
		  node.session.timeo.replacement_timeout=20; do
		_rogue_iscsiadm -o update -n "${kv%%=*}" -v "${kv#*=}" >/dev/null ||
			return 1
	done
	timeout 120 iscsiadm -m node -T $ROGUE_IQN -p $IP0:$ROGUE_PORT -I iser --login ||
		return 1
	lab_wait 60 _rogue_disk
}

# rogue_logout: log out of the rogue target and delete its node record;
# stop the rogue target.
rogue_logout() {
	local ret=0
	if rogue_session >/dev/null; then
		timeout 120 iscsiadm -m node -T $ROGUE_IQN -p $IP0:$ROGUE_PORT -I iser \
			--logout >/dev/null || ret=1
	fi
	_rogue_iscsiadm -o delete >/dev/null 2>&1
	lab_target_stop
	ROGUE_DEV=
	rogue_session >/dev/null && { echo "session left"; return 1; }
	return $ret
}

# rogue_trigger [SECS [READ_BYTES]]: the vendor CDB (c0) the rogue target
# lies about, with a SCSI timeout of SECS (default 10), reading READ_BYTES
# (default 4096) so that the command has a read buffer. sg_raw's status.
rogue_trigger() {
	timeout 120 sg_raw -R -r "${2:-4096}" -t "${1:-10}" /dev/$ROGUE_DEV \
		c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1
}

# rogue_read_ok BS COUNT: COUNT O_DIRECT reads of BS bytes from the start
# of the LUN carry the LBA pattern.
rogue_read_ok() { lab_target_lun_ok $ROGUE_DEV "$@"; }

# rogue_usable: the disk answers TEST UNIT READY (after a reconnect, if
# one is under way) and 64 KiB read back carry the pattern.
rogue_usable() {
	lab_wait 60 _rogue_disk || { echo "no disk"; return 1; }
	lab_wait 60 lab_tur $ROGUE_DEV || { echo "TEST UNIT READY fails"; return 1; }
	rogue_read_ok 64K 1
}
