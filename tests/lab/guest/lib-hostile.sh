# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Hostile-target helpers (sourced after /lab/lib.sh): run srp-fake-target
# (tests/fake-target/) on rxe0 at port $FAKE_PORT in one of its modes, log
# in to it, and look at what the initiator said about it in dmesg.
. /lab/lib-srp.sh

FAKE_PORT=5556
FAKE_ID=0x0002c903000fa4e0
FAKE_LOG=/tmp/srp-fake-target.log
# The fake target: the lab's tools directory, or FAKE_BIN from the caller.
: "${FAKE_BIN:=/lab/tools/srp-fake-target}"

hostile_have_fake() { lab_target_have "$FAKE_BIN"; }

# hostile_fake_start MODE [OPTIONS...]: (re)start the fake target.
hostile_fake_start() {
	local mode=$1
	shift
	lab_target_start $FAKE_LOG "$FAKE_BIN" -a $IP0 -p $FAKE_PORT "$@" "$mode"
}

# The fake target's log (lib.sh lab_target_*).
hostile_fake_stop() { lab_target_stop; }
hostile_fake_saw() { lab_target_saw "$@"; }
hostile_fake_count() { lab_target_count "$1"; }

# hostile_target_string [EXTRA]: the add_target string for the fake target
# (its ioc_guid HOSTILE_IOC if set, else FAKE_ID).
HOSTILE_IOC=
hostile_target_string() {
	echo "id_ext=$FAKE_ID,ioc_guid=${HOSTILE_IOC:-$FAKE_ID},dest=$IP0:$FAKE_PORT,ch_count=1${1:+,$1}"
}

# hostile_no_hosts: no ib_srp SCSI host and no SRP rport is left.
hostile_no_hosts() {
	local h
	h=$(lab_srp_hosts)
	[ -z "$h" ] || { echo "SRP hosts left: $h"; return 1; }
	[ -z "$(ls /sys/class/srp_remote_ports/ 2>/dev/null)" ] || {
		echo "rports left: $(ls /sys/class/srp_remote_ports/)"; return 1; }
}

# hostile_login_fails MODE ERRTEXT REASON_REGEX [EXTRA]: with the fake
# target in MODE, writing add_target fails with the strerror text ERRTEXT,
# the kernel log says why (REASON_REGEX) and nothing is left behind. One
# check per property, named after MODE.
hostile_login_fails() {
	local mode=$1 err=$2 why=$3 extra=$4
	hostile_fake_start "$mode" || { fail "$mode: fake target starts"; return; }
	lab_log_mark
	check "$mode: add_target fails with '$err'" \
		srp_add_target_errno 0 "$err" "$(hostile_target_string "$extra")"
	check "$mode: kernel log says why" lab_log_has "$why"
	check "$mode: no SCSI host or rport left" hostile_no_hosts
	hostile_fake_stop
}

# hostile_login MODE [FAKE OPTIONS...]: start the fake target in MODE, log
# in (one channel, reconnect_delay 2 s, plus the add_target keys in
# HOSTILE_EXTRA); sets HOSTILE_HOST and HOSTILE_DEV (the LUN's sdX).
# Returns once the LUN is quiet (hostile_quiet), so that the trigger is
# the only command in flight. Records no check; returns non-zero on
# failure.
HOSTILE_HOST=
HOSTILE_DEV=
HOSTILE_EXTRA=
hostile_login() {
	local before h
	HOSTILE_HOST=
	HOSTILE_DEV=
	hostile_fake_start "$@" || return 1
	before=$(lab_srp_hosts)
	lab_log_mark
	srp_add_target_ok 0 "$(hostile_target_string "$HOSTILE_EXTRA")" || return 1
	for h in $(lab_srp_hosts); do
		echo "$before" | grep -qx "$h" || HOSTILE_HOST=$h
	done
	[ -n "$HOSTILE_HOST" ] || return 1
	echo 2 > /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/reconnect_delay
	srp_wait_disks "$HOSTILE_HOST" 1 || return 1
	HOSTILE_DEV=$(lab_host_disks "$HOSTILE_HOST" | head -1)
	[ -n "$HOSTILE_DEV" ] && hostile_quiet
}

# hostile_quiet: udev has handled the new disk (its blkid and scsi_id
# commands are done) and the SCSI device has no command in flight. A lie
# told about the trigger may name another tag (tag-other: the trigger's
# tag ^ 1); with udev's read still in flight under that tag the driver
# completed the read, invalidated its MR, and the target's RDMA WRITE for
# the read then hit the invalid rkey and broke the channel (boot
# 20261203-111359). Nothing in the guest issues I/O to the LUN after udev.
hostile_quiet() {
	udevadm settle -t 60 || { echo "udev did not settle"; return 1; }
	lab_wait 30 hostile_idle || { hostile_idle; return 1; }
}

# hostile_idle: no command of HOSTILE_DEV is with the driver.
hostile_idle() {
	local busy
	busy=$(cat /sys/block/$HOSTILE_DEV/device/device_busy)
	[ "$busy" = 0 ] || { echo "$HOSTILE_DEV: $busy commands in flight"; return 1; }
}

# hostile_logout: delete the fake target's rport, stop the fake target.
hostile_logout() {
	local ret=0
	if [ -n "$HOSTILE_HOST" ] && [ -e /sys/class/scsi_host/host$HOSTILE_HOST ]; then
		srp_logout "$HOSTILE_HOST" || ret=1
	fi
	hostile_fake_stop
	HOSTILE_HOST=
	HOSTILE_DEV=
	return $ret
}

# hostile_trigger [SECS]: send the vendor-specific CDB (0xc0) the fake
# target lies about, with a SCSI timeout of SECS (default 8). Returns
# sg_raw's exit status.
hostile_trigger() {
	timeout 120 sg_raw -R -t "${1:-8}" /dev/$HOSTILE_DEV c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1
}

# hostile_trigger_in [SECS]: the trigger with a 4 KiB data-in buffer
# (the fake target returns the LUN's start), from CPU 0, so that with
# ch_count=2 every trigger goes out on the same channel.
hostile_trigger_in() {
	timeout 120 taskset -c 0 sg_raw -R -r 4096 -t "${1:-8}" /dev/$HOSTILE_DEV \
		c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1
}

# hostile_trigger_out [SECS]: the trigger with 4 KiB of data-out, from
# CPU 0, through the LUN's sg node (sd does not open a write-protected
# disk for writing).
hostile_trigger_out() {
	local sg
	sg=$(ls /sys/block/$HOSTILE_DEV/device/scsi_generic/ 2>/dev/null | head -1)
	[ -n "$sg" ] || { echo "no sg node for $HOSTILE_DEV"; return 1; }
	head -c 4096 /dev/zero | tr '\0' W > /tmp/sg_raw.in
	timeout 120 taskset -c 0 sg_raw -s 4096 -i /tmp/sg_raw.in -t "${1:-8}" \
		/dev/$sg c0 00 00 00 00 00 >/tmp/sg_raw.out 2>&1
}

# hostile_probe_failed [SECS]: lab_target_probe_failed for the fake
# target's probe (-P).
hostile_probe_failed() { lab_target_probe_failed "$@"; }

# hostile_usable: the host answers TEST UNIT READY and one 4 KiB O_DIRECT
# read of the LUN's start carries the fake target's pattern. The TUR is
# lab_tur's (sg_turs --low, which sends one on 6.12 too) under timeout(1),
# which cannot run a shell function.
hostile_usable() {
	timeout 90 sg_turs --low /dev/$HOSTILE_DEV && hostile_read_ok 4K 1
}

# hostile_rport_running: the rport is back to running (after a reconnect).
hostile_rport_running() {
	grep -qx running /sys/class/srp_remote_ports/port-$HOSTILE_HOST:1/state
}

# hostile_read_ok BS COUNT: COUNT reads of BS bytes (dd sizes: 64K, 1M)
# from the start of the LUN with O_DIRECT; every 512-byte block begins
# with its LBA.
hostile_read_ok() { lab_target_lun_ok $HOSTILE_DEV "$@"; }

# hostile_pattern_ok BLOCKS: the first BLOCKS blocks of the LUN, read in
# 64 KiB requests, each begin with their LBA.
hostile_pattern_ok() { hostile_read_ok 64K $(($1 / 128)); }

# hostile_usable_within SECS: like hostile_usable, but a command that hangs
# (credits the driver believes it lacks) fails the check after SECS instead
# of blocking the scenario; the caller then restarts the fake target so the
# reconnect frees the stuck command.
hostile_usable_within() {
	local secs=$1 pid end
	hostile_usable >/tmp/hostile-usable.out 2>&1 &
	pid=$!
	end=$((SECONDS + secs))
	while kill -0 $pid 2>/dev/null; do
		if [ $SECONDS -ge $end ]; then
			echo "no answer within $secs s (req_lim=$(cat /sys/class/scsi_host/host$HOSTILE_HOST/req_lim 2>/dev/null))"
			return 1
		fi
		sleep 1
	done
	wait $pid
}

# hostile_unstick: restart the fake target as a correct one; the driver's
# reconnect logs in afresh and whatever was stuck completes.
hostile_unstick() {
	hostile_fake_start ok
	lab_wait 90 hostile_rport_running
	sleep 5
}

# hostile_rescan HOST: a SCSI rescan of HOST finds the fake target's LUN.
hostile_rescan() {
	echo "- - -" > /sys/class/scsi_host/host$1/scan || return 1
	srp_wait_disks "$1" 1
}
