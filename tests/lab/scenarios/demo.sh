# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# The demo (tests/demo): srp-discover finds the SRP target on both paths
# and its lines log in, iSER logs in, then lsscsi, the multipath maps,
# rdi-status, a file system and a short fio run. What the user is meant to
# read goes to the console as "LAB-SHOW " lines, which tests/demo prints
# and the rest of the console (kernel messages) only goes to the log.
#
# lab-drivers: demo
source /lab/lib-tools.sh

# say TEXT: a line of the demo's output.
say() { echo "LAB-SHOW $*"; }
# section TITLE EXPLANATION: a new section with its one-line explanation.
section() { say; say "== $1"; say "   $2"; }
# show CMD...: run CMD, its output indented in the demo's output.
show() { "$@" 2>&1 | sed 's/^/LAB-SHOW     /'; }

lab_srpt_up 2
lab_iser_target_up 2
lab_multipathd_up
lab_iscsid_up

section "Modules" "The initiators modprobe loaded: with DRIVER=ours, ours from updates/."
lab_srp_load && lab_iser_load
for m in ib_srp ib_iser rdi_core; do
	modinfo -n $m >/dev/null 2>&1 &&
		say "   $m $(modinfo -F version $m 2>/dev/null)  $(modinfo -n $m)"
done

section "SRP discovery" \
	"srp-discover asks each RoCE port's device manager for SRP targets and prints add_target lines."
# srp-discover sends its DM queries through ib_umad and resolves
# addresses through rdma_ucm; srp_daemon's hosts load both too.
check "ib_umad and rdma_ucm load" tools_modules_up
l0=$($SRP_DISCOVER $IP0 | grep '^id_ext=')
l1=$($SRP_DISCOVER $IP1 | grep '^id_ext=')
say "   \$ srp-discover $IP0"
say "     $l0"
say "   \$ srp-discover $IP1"
say "     $l1"
check "srp-discover finds the SRP target on both paths" test -n "$l0" -a -n "$l1"

section "SRP login" "Each line written to its port's add_target: two paths to the same LUNs."
if h0=$(tools_login_line "$l0" $RXE0) && h1=$(tools_login_line "$l1" $RXE1); then
	pass "SRP login on two paths (hosts $h0, $h1)"
	say "   SCSI hosts $h0 and $h1"
else
	fail "SRP login on two paths"
fi

section "iSER login" "iscsiadm with -I iser: open-iscsi's own transport, our ib_iser underneath."
show iscsiadm -m discovery -t st -p $IP0 -I iser
iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --login >/dev/null &&
	pass "iSER login" || fail "iSER login"
lab_wait 60 sh -c "[ \$(multipath -ll 2>/dev/null | grep -c LIO-ORG) -ge 4 ]"

section "Disks" "lsscsi: every LUN once per SRP path, and once over iSER."
show lsscsi
section "Multipath" "multipathd joined the two SRP paths of each LUN into one map."
show multipath -ll
section "rdi-status" "Every SRP and iSER login, its state, paths and block devices (--json for scripts)."
show $RDI_STATUS

map=$(multipath -ll | awk '/LIO-ORG/ {print $1; exit}')
if [ -n "$map" ]; then
	section "File system" "ext4 on /dev/mapper/$map, 8 MiB written."
	say "   (The full log shows one 'critical target error ... WRITE_ZEROES' here: the lab's LIO"
	say "   RAM backstore refuses WRITE SAME, so mkfs writes the zeroes itself. Not an initiator error.)"
	if mkfs.ext4 -q -F /dev/mapper/$map && mkdir -p /mnt/demo && mount /dev/mapper/$map /mnt/demo &&
		dd if=/dev/urandom of=/mnt/demo/file bs=1M count=8 status=none; then
		pass "ext4 on $map"
		show df -h /mnt/demo
	else
		fail "ext4 on $map"
	fi
	umount /mnt/demo 2>/dev/null

	section "fio" "4 KiB random reads, queue depth 16, 10 s on /dev/mapper/$map (TCG guest: slow by design)."
	fio --name=demo --filename=/dev/mapper/$map --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --runtime=10 --time_based \
		--group_reporting > /tmp/demo-fio.out 2>&1
	rc=$?
	grep -E 'read:|clat \(|50.00th|99.00th' /tmp/demo-fio.out | sed 's/^/LAB-SHOW     /'
	check "fio ran without error (rc=$rc)" sh -c "[ $rc -eq 0 ] && grep -q 'err= 0' /tmp/demo-fio.out"
else
	fail "a multipath map for the SRP LUNs"
fi

section "Logout" "iSER session and SRP remote ports removed."
iscsiadm -m node -T $ISER_IQN -p $IP0 -I iser --logout >/dev/null &&
	pass "iSER logout" || fail "iSER logout"
tools_logout_all && pass "SRP logout" || fail "SRP logout"
lab_multipathd_down
