# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Rogue iSER target helpers (sourced after /lab/lib.sh): run rogue-iser
# (tests/rogue-iser/) on $IP0 at port $ROGUE_PORT in one of its modes, log
# in to it with iscsiadm -I iser, and look at what it saw.
. /lab/lib-iser.sh

ROGUE_PORT=3261
ROGUE_IQN=iqn.2026-12.org.example:rogue
ROGUE_LOG=/tmp/rogue-iser.log
ROGUE_PID=
ROGUE_DEV=
: "${ROGUE_BIN:=/lab/tools/rogue-iser}"

# rogue_have: the rogue target binary is there and runs.
rogue_have() {
	local out
	[ -x "$ROGUE_BIN" ] || { echo "no $ROGUE_BIN"; return 1; }
	out=$("$ROGUE_BIN" -h 2>&1)
	echo "$out" | grep -q '^usage' || { echo "$out"; return 1; }
}

# rogue_start MODE [OPTIONS...]: (re)start the rogue target.
rogue_start() {
	local mode=$1
	shift
	rogue_stop
	: > $ROGUE_LOG
	"$ROGUE_BIN" -a $IP0 -p $ROGUE_PORT "$@" "$mode" >> $ROGUE_LOG 2>&1 &
	ROGUE_PID=$!
	lab_wait 20 grep -q '^LISTEN' $ROGUE_LOG || {
		lab_note "rogue-iser $mode did not start:"
		sed 's/^/    /' $ROGUE_LOG
		return 1
	}
}

# rogue_stop: stop the rogue target (it disconnects its connections).
rogue_stop() {
	[ -n "$ROGUE_PID" ] || return 0
	kill "$ROGUE_PID" 2>/dev/null
	wait "$ROGUE_PID" 2>/dev/null
	ROGUE_PID=
}

# rogue_saw REGEX [SECS]: the rogue target logged a line matching REGEX
# (extended), waiting up to SECS (default 10) seconds for it.
rogue_saw() {
	lab_wait "${2:-10}" grep -Eq "$1" $ROGUE_LOG || {
		echo "rogue target log has no /$1/:"
		tail -20 $ROGUE_LOG
		return 1
	}
}

rogue_count() { grep -Ec "$1" $ROGUE_LOG; }

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
	rogue_stop
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
# of the LUN; every 512-byte block begins with its LBA.
rogue_read_ok() {
	local blocks
	blocks=$(( $(numfmt --from=iec "$1") / 512 * $2 ))
	timeout 120 dd if=/dev/$ROGUE_DEV bs=$1 count=$2 iflag=direct status=none |
		od -An -v -tx1 -w512 |
		awk '{ s = $1 $2 $3 $4 $5 $6 $7 $8
		       if (s != sprintf("%016x", NR - 1)) { print "block " NR - 1 ": " s; bad = 1; exit }
		       n = NR }
		     END { if (bad || n != '"$blocks"') { print n " blocks read"; exit 1 } }'
}

# rogue_usable: the disk answers TEST UNIT READY (after a reconnect, if
# one is under way) and 64 KiB read back carry the pattern.
rogue_usable() {
	lab_wait 60 _rogue_disk || { echo "no disk"; return 1; }
	lab_wait 60 sg_turs /dev/$ROGUE_DEV || { echo "TEST UNIT READY fails"; return 1; }
	rogue_read_ok 64K 1
}
