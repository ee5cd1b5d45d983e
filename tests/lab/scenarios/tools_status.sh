# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# rdi-status on iSER sessions (two portals, one per path) with a multipath
# map on top: its JSON checked field by field against sysfs and iscsiadm.
# Then four SRP logins: IPv4 on both paths, one with keepalive=7 and one
# with the module's default, global IPv6 and IPv6 link-local with its scope
# on path 0. The keep-alive field and column against the host attributes
# (ours), null and "-" where the driver has none (in-tree); the
# destination field and column against the dest= of each login's string
# (ours), null and "(RDMA/CM)" where the driver does not tell (in-tree).
# With ours, every file its modules create in sysfs and debugfs against
# docs/ABI, both ways (issue 36).
#
# lab-drivers: ours intree
source /lab/lib-tools.sh
. /lab/lib-srp.sh
. /lab/lib-abi.sh
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
	check "json iser[$i]: $s exists" sh -c '[ -n "$1" ] && [ -d "$2" ]' _ "$s" "$d"
	for f in targetname tpgt state recovery_tmo ifacename; do
		check "json iser[$i].$f = sysfs" lab_same "$(tools_json_get "$flat" "iser\[$i\].$f")" "$(cat $d/$f)"
	done
	check "json iser[$i].state is LOGGED_IN" test "$(tools_json_get "$flat" "iser\[$i\].state")" = LOGGED_IN
	check "json iser[$i].targetname is the lab IQN" test "$(tools_json_get "$flat" "iser\[$i\].targetname")" = "$ISER_IQN"
	h=$(tools_json_get "$flat" "iser\[$i\].host")
	check "json iser[$i].host $h is an iscsi_iser host" test "$(cat /sys/class/scsi_host/host$h/proc_name)" = iscsi_iser
	check "json iser[$i]: one connection" test "$(tools_json_get "$flat" "iser\[$i\].connections#")" = 1
	c=$(tools_json_get "$flat" "iser\[$i\].connections\[0\].name")
	for f in address port persistent_address persistent_port state max_recv_dlength max_xmit_dlength; do
		check "json iser[$i].connections[0].$f = sysfs" \
			lab_same "$(tools_json_get "$flat" "iser\[$i\].connections\[0\].$f")" "$(cat /sys/class/iscsi_connection/$c/$f)"
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
# Our files in sysfs and debugfs against docs/ABI (lib-abi.sh). ib_iser
# adds no SCSI host attribute: its host's are the midlayer's, and the SRP
# hosts' beyond those are ib_srp's (below).
if [ "$DRIVER" = ours ]; then
	h=$(tools_json_get "$flat" 'iser\[0\].host')
	midlayer=$(lab_abi_files /sys/class/scsi_host/host$h | sed 's|.*/||')
	# shellcheck disable=SC2046 # file paths, one word each
	check "ABI: ib_iser's and rdi_core's files are in docs/ABI, each entry of theirs has a file" \
		lab_abi_check '^/sys/(module/(ib_iser|rdi_core)|kernel/debug/(ib_iser|rdi_core))/' \
		$(lab_abi_files /sys/module/ib_iser/parameters /sys/module/rdi_core/parameters) \
		$(find /sys/kernel/debug/ib_iser /sys/kernel/debug/rdi_core -type f)
fi
a0=$(tools_json_get "$flat" 'iser\[0\].connections\[0\].address')
a1=$(tools_json_get "$flat" 'iser\[1\].connections\[0\].address')
check "json: one session per portal ($a0, $a1)" \
	test "$(printf '%s\n' $a0 $a1 | sort)" = "$(printf '%s\n' $IP0 $IP1 | sort)"

lab_multipathd_down
for ip in $IP0 $IP1; do
	check "iSER logout from $ip" iscsiadm -m node -T $ISER_IQN -p $ip:3260 -I iser --logout
done
check "rdi-status: no iSER session afterwards" tools_status_count iser 0

# SRP keep-alive: ours exports keepalive (seconds) and keepalive_state (on,
# off, refused) per SCSI host; the in-tree ib_srp has neither, and
# rdi-status shows null / "-" for it and still exits 0.
check "SRP target up" lab_srpt_up 2
check "ib_srp loads" lab_srp_load
ka_opt=
[ "$DRIVER" = ours ] && ka_opt=keepalive=7
hk=$(lab_srp_login 0 "$ka_opt") && pass "SRP login on path 0 ${ka_opt:-(no key)}" ||
	fail "SRP login on path 0 ${ka_opt:-(no key)}"
hd=$(lab_srp_login 1) && pass "SRP login on path 1 (no keepalive key)" ||
	fail "SRP login on path 1 (no keepalive key)"
# Each login's dest=, by SCSI host.
declare -A dest=()
[ -n "$hk" ] && dest[$hk]=$IP0:$SRP_PORT
[ -n "$hd" ] && dest[$hd]=$IP1:$SRP_PORT
srp_acl_v6 0
# Through rxe0 like the first login, so each with its own initiator_ext
# (a second login with the same one is refused: "already logged in").
ext=0
for d in "[$IP6_0]:$SRP_PORT" "[$(lab_ll_addr 0)%$(lab_ifindex 0)]:$SRP_PORT"; do
	ext=$((ext + 1))
	if h=$(lab_srp_login_dest 0 "$d" "initiator_ext=$ext"); then
		pass "SRP login dest=$d"
		dest[$h]=$d
	else
		fail "SRP login dest=$d"
	fi
done
$RDI_STATUS --verbose
json=$($RDI_STATUS --json)
rc=$?
flat=$(tools_json_flat <<<"$json")
table=$($RDI_STATUS)
echo "$table"
check "SRP: rdi-status --json exits 0" test $rc -eq 0
check "SRP: rdi-status --json is well-formed" tools_json_valid "$json"
check "SRP: json lists 4 SRP logins" test "$(tools_json_get "$flat" 'srp#')" = 4
for ((i = 0; i < 4; i++)); do
	h=$(tools_json_get "$flat" "srp\[$i\].host")
	d=/sys/class/scsi_host/host$h
	col=$(tools_table_col "$table" "host$h" DESTINATION)
	if [ "$DRIVER" = ours ]; then
		check "json srp[$i] (host$h).dest is the login's dest=${dest[$h]}" \
			tools_json_eq "$flat" "srp\[$i\].dest" "${dest[$h]}"
		check "table: host$h DESTINATION is the login's dest=${dest[$h]}" \
			test -n "${dest[$h]}" -a "$col" = "${dest[$h]}"
	else
		check "json srp[$i] (host$h).dest is null (in-tree: no dest)" \
			test "$(tools_json_get "$flat" "srp\[$i\].dest")" = null
		check "table: host$h DESTINATION is (RDMA/CM) (in-tree)" test "$col" = "(RDMA/CM)"
	fi
	for f in keepalive keepalive_state; do
		check "json srp[$i] (host$h) has the field $f" grep -q "^srp\[$i\]\.$f=" <<<"$flat"
	done
	col=$(tools_table_col "$table" "host$h" KEEPALIVE)
	if [ "$DRIVER" = ours ]; then
		for f in keepalive keepalive_state; do
			check "host$h has the attribute $f" test -r $d/$f
			check "json srp[$i].$f = sysfs ($(cat $d/$f 2>/dev/null))" \
				tools_json_eq "$flat" "srp\[$i\].$f" "$(cat $d/$f 2>/dev/null)"
		done
		want=$(cat $d/keepalive_state)/$(cat $d/keepalive)s
		[ "$(cat $d/keepalive_state)" = off ] && want=off
		check "table: host$h KEEPALIVE is $want" test "$col" = "$want"
	else
		for f in keepalive keepalive_state; do
			check "json srp[$i].$f is null (in-tree: no keep-alive)" \
				test "$(tools_json_get "$flat" "srp\[$i\].$f")" = null
		done
		check "table: host$h KEEPALIVE is - (in-tree)" test "$col" = -
	fi
done
if [ "$DRIVER" = ours ]; then
	check "host$hk: keepalive 7, from add_target" test "$(cat /sys/class/scsi_host/host$hk/keepalive)" = 7
	check "host$hd: keepalive = ib_srp.keepalive ($(cat /sys/module/ib_srp/parameters/keepalive))" \
		lab_same "$(cat /sys/class/scsi_host/host$hd/keepalive)" "$(cat /sys/module/ib_srp/parameters/keepalive)"
	for h in "${!dest[@]}"; do
		check "host$h: keepalive_state on" test "$(cat /sys/class/scsi_host/host$h/keepalive_state)" = on
	done
fi
if [ "$DRIVER" = ours ]; then
	# shellcheck disable=SC2046 # file paths, one word each
	check "ABI: ib_srp's files are in docs/ABI, each entry of it has a file" \
		lab_abi_check '^/sys/(class/(infiniband_srp|scsi_host)|module/ib_srp|kernel/debug/ib_srp)/' \
		$(lab_abi_files /sys/class/infiniband_srp/srp-* /sys/module/ib_srp/parameters) \
		$(lab_abi_files /sys/class/scsi_host/host$hk |
			awk -F/ 'NR == FNR { m[$0]; next } !($NF in m)' <(echo "$midlayer") -) \
		$(find /sys/kernel/debug/ib_srp -type f)
fi
check "SRP logout" srp_logout_all
check "rdi-status: no SRP login afterwards" tools_status_count srp 0
