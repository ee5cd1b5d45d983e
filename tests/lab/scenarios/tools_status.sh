# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# rdi-status on iSER sessions (two portals, one per path) with a multipath
# map on top: its JSON checked field by field against sysfs and iscsiadm.
#
# lab-drivers: ours intree
source /lab/lib-tools.sh
lab_iser_target_up 1
lab_iscsid_up
lab_multipathd_up
check "ib_iser loads" lab_iser_load
for ip in $IP0 $IP1; do
	iscsiadm -m discovery -t st -p $ip -I iser >/dev/null
	check "iSER login to $ip" iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser --login
done
# An earlier scenario in the same boot may have exported more LUNs.
nluns=$(ls -d $CFS/iscsi/$ISER_IQN/tpgt_1/lun/lun_* | wc -l)
lab_wait 60 sh -c "[ \$(iscsiadm -m session -P3 | grep -c 'Attached scsi disk') -eq $((nluns * 2)) ]"
check "a multipath map over both sessions for each of the $nluns LUNs" lab_wait 90 tools_mpath_ok $nluns 2

$RDI_STATUS --verbose
json=$($RDI_STATUS --json)
rc=$?
flat=$(tools_json_flat <<<"$json")
check "rdi-status --json exits 0" test $rc -eq 0
check "rdi-status --json is well-formed" tools_json_valid "$json"
check "json: no SRP logins" test "$(tools_json_get "$flat" 'srp#')" = 0
check "json: 2 iSER sessions" test "$(tools_json_get "$flat" 'iser#')" = 2
check "json: $nluns multipath maps" test "$(tools_json_get "$flat" 'multipath#')" = $nluns
for i in 0 1; do
	s=$(tools_json_get "$flat" "iser\[$i\].session")
	d=/sys/class/iscsi_session/$s
	check "json iser[$i]: $s exists" test -d $d
	for f in targetname tpgt state recovery_tmo ifacename; do
		check "json iser[$i].$f = sysfs" test "$(tools_json_get "$flat" "iser\[$i\].$f")" = "$(cat $d/$f)"
	done
	check "json iser[$i].state is LOGGED_IN" test "$(tools_json_get "$flat" "iser\[$i\].state")" = LOGGED_IN
	check "json iser[$i].targetname is the lab IQN" test "$(tools_json_get "$flat" "iser\[$i\].targetname")" = "$ISER_IQN"
	h=$(tools_json_get "$flat" "iser\[$i\].host")
	check "json iser[$i].host $h is an iscsi_iser host" test "$(cat /sys/class/scsi_host/host$h/proc_name)" = iscsi_iser
	check "json iser[$i]: one connection" test "$(tools_json_get "$flat" "iser\[$i\].connections#")" = 1
	c=$(tools_json_get "$flat" "iser\[$i\].connections\[0\].name")
	for f in address port persistent_address persistent_port state max_recv_dlength max_xmit_dlength; do
		check "json iser[$i].connections[0].$f = sysfs" \
			test "$(tools_json_get "$flat" "iser\[$i\].connections\[0\].$f")" = "$(cat /sys/class/iscsi_connection/$c/$f)"
	done
	# (an empty block name matched any disk here, and an empty multipath
	# name the empty holder list of /sys/block//)
	check "json iser[$i]: $nluns LUNs" test "$(tools_json_get "$flat" "iser\[$i\].luns#")" = $nluns
	blk=$(tools_json_get "$flat" "iser\[$i\].luns\[0\].block")
	check "json iser[$i].luns[0].block $blk is the session's disk" \
		sh -c "[ -n '$blk' ] && iscsiadm -m session -r ${s#session} -P3 | grep -qw 'Attached scsi disk $blk'"
	mp=$(tools_json_get "$flat" "iser\[$i\].luns\[0\].multipath")
	check "json iser[$i].luns[0].multipath $mp is its dm map" \
		sh -c '[ -n "$1" ] && [ "$1" = "$(cat /sys/block/$2/holders/*/dm/name)" ]' _ "$mp" "$blk"
done
a0=$(tools_json_get "$flat" 'iser\[0\].connections\[0\].address')
a1=$(tools_json_get "$flat" 'iser\[1\].connections\[0\].address')
check "json: one session per portal ($a0, $a1)" \
	test "$(printf '%s\n' $a0 $a1 | sort)" = "$(printf '%s\n' $IP0 $IP1 | sort)"

lab_multipathd_down
for ip in $IP0 $IP1; do
	check "iSER logout from $ip" iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser --logout
done
check "rdi-status: no iSER session afterwards" tools_status_count iser 0
