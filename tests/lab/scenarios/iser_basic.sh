# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER basics: the iser transport registers, SendTargets discovery and
# login over iSER, ext4 data and a short fio verify on the disk, counters
# and tracepoints (ours), logout; a node asking for header digests gets no
# session with one (iSER carries none); unload; reload with pi_enable=Y
# on a device without T10-PI offload and a smaller max_sectors, which
# then changes at run time; unload.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "iser transport registered" test -d /sys/class/iscsi_transport/iser
check "discovery over iSER on $IP0" iser_discover $IP0
check "login over iSER on $IP0" iser_login $IP0
check "session shows 2 disks" iser_wait_disks $IP0 2
host=$(iser_host $IP0)
check "host proc_name is iscsi_iser" \
	grep -qx iscsi_iser /sys/class/scsi_host/host$host/proc_name
disk=$(iser_disks $IP0 | head -1)
check "ext4 on $disk: data survives remount" lab_data_check "$disk"
check "fio verify on $disk" lab_fio_verify "$disk" --size=16m
if [ "$DRIVER" = ours ]; then
	iscsiadm -m session -s | sed -n '/iSCSI Extended/,$p'
	check "counters: every registration invalidated" iser_inv_balance
	st=$(ls /sys/kernel/debug/ib_iser/ep*/stats 2>/dev/null | head -1)
	check "debugfs counters readable" grep -q '^regs [1-9]' "$st"
	r0=$(awk '$1 == "regs" { print $2 }' "$st")
	echo 1 > "$st"
	# After the reset only commands sent since count: fewer registrations
	# than before it (fio's thousands), none without its command.
	counted() { awk -v k="$1" '$1 == k { print $2 }' "$st"; }
	check "debugfs counters reset (regs $r0 -> $(counted regs), commands $(counted cmds))" \
		sh -c '[ "$1" -lt "$3" ] && [ "$1" -le "$2" ]' _ "$(counted regs)" "$(counted cmds)" "$r0"
	tr=/sys/kernel/tracing
	echo > $tr/trace
	echo 1 > $tr/events/ib_iser/enable
	dd if=/dev/$disk of=/dev/null bs=64k count=16 iflag=direct 2>/dev/null
	echo 0 > $tr/events/ib_iser/enable
	check "tracepoints: command sends and received PDUs traced" sh -c \
		"grep -q 'iser_cmd_send:' $tr/trace && grep -q 'iser_rx_pdu:' $tr/trace"
	grep -m2 'iser_' $tr/trace
	echo > $tr/trace
fi
check "logout" iser_logout $IP0
check "no iser session left" iser_no_session

# Header digests asked for: iSER has none (RFC 7145). Either iscsid offers
# None anyway or the transport refuses the parameter and the login fails;
# no session may come up carrying a digest, and nothing may hang.
node="-m node -T $ISER_IQN -p $IP0:$ISER_PORT -I iser"
iscsiadm $node -o update -n node.conn[0].iscsi.HeaderDigest -v CRC32C
iscsiadm $node -o update -n node.session.initial_login_retry_max -v 1
timeout 120 iscsiadm $node --login >/dev/null 2>&1
lab_note "login asking for CRC32C header digests: rc $?"
check "no session with a header digest" sh -c \
	"! iscsiadm -m session -P2 2>/dev/null | grep -q 'HeaderDigest: CRC32C'"
iser_logout $IP0 >/dev/null 2>&1
iscsiadm $node -o update -n node.conn[0].iscsi.HeaderDigest -v None
check "no iser session left after the digest login" lab_wait 30 iser_no_session

check "ib_iser unloads after logout" iser_unload

# Loaded with pi_enable=Y on a device without T10-PI offload (rxe): the
# session comes up without protection and data moves; ours says why in
# the kernel log (the in-tree driver only with debug_level > 0).
# max_sectors from the command line, then changed at run time for the
# next session; 0 is refused. (The in-tree driver rounds max_sectors down
# to what its registration covers: 124 and 252 KiB; ours 128 and 256.)
iser_max_kb_in() {	# DISK MIN MAX: max_hw_sectors_kb within MIN..MAX
	local kb
	kb=$(cat /sys/block/$1/queue/max_hw_sectors_kb)
	lab_note "$1: max_hw_sectors_kb $kb"
	[ "$kb" -ge "$2" ] && [ "$kb" -le "$3" ]
}
pm=/sys/module/ib_iser/parameters
check "ib_iser loads with pi_enable=Y max_sectors=256" lab_iser_load pi_enable=Y max_sectors=256
check "pi_enable=Y: login over iSER on $IP0" iser_login $IP0
check "pi_enable=Y: session shows 2 disks" iser_wait_disks $IP0 2
host=$(iser_host $IP0)
disk=$(iser_disks $IP0 | head -1)
check "pi_enable=Y: host advertises no protection" \
	grep -qx 0 /sys/class/scsi_host/host$host/prot_capabilities
check "max_sectors=256: the disk takes at most 128 KiB" \
	iser_max_kb_in $disk 64 128
check "pi_enable=Y: fio verify on $disk" lab_fio_verify "$disk" --size=8m --bs=256k
[ "$DRIVER" = ours ] && check "pi_enable=Y: kernel log says why there is no T10-PI" \
	sh -c "dmesg | grep -q 'T10-PI requested but the device has no integrity offload'"
check "max_sectors=0 refused" sh -c "! echo 0 > $pm/max_sectors 2>/dev/null"
check "max_sectors writable" sh -c "echo 512 > $pm/max_sectors"
check "pi_enable=Y: logout" iser_logout $IP0
check "max_sectors=512: login" iser_login $IP0
check "max_sectors=512: session shows 2 disks" iser_wait_disks $IP0 2
disk=$(iser_disks $IP0 | head -1)
check "max_sectors=512: the new session's disk takes 129..256 KiB" \
	iser_max_kb_in $disk 129 256
check "max_sectors=512: logout" iser_logout $IP0
check "no iser session left after the parameter logins" lab_wait 30 iser_no_session
check "ib_iser unloads again" iser_unload
