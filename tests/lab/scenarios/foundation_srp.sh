# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Foundation proof of the SRP lab: RDMA/CM login on both paths, a LUN per
# path as /dev/sdX, ext4 data survives a remount, dm-multipath builds one map
# per LUN with two paths, logout and unload.
#
# lab-drivers: ours intree
. /lab/lib-srp.sh

lab_srpt_up 2
lab_multipathd_up
check "ib_srp loads" lab_srp_load
h0=$(lab_srp_login 0) && pass "login over RDMA/CM on path 0" || fail "login over RDMA/CM on path 0"
h1=$(lab_srp_login 1) && pass "login over RDMA/CM on path 1" || fail "login over RDMA/CM on path 1"
lab_wait 60 sh -c "[ \$(ls -d /sys/class/scsi_host/host$h0/device/target*/*:*:*:*/block 2>/dev/null | wc -l) -ge 2 ]"
disks0=$(lab_host_disks "$h0")
disks1=$(lab_host_disks "$h1")
check "path 0 shows 2 LUNs" test "$(echo $disks0 | wc -w)" -eq 2
check "path 1 shows 2 LUNs" test "$(echo $disks1 | wc -w)" -eq 2
check "rport port-$h0:1 exists" test -d /sys/class/srp_remote_ports/port-$h0:1
lab_wait 60 sh -c "[ \$(multipath -ll 2>/dev/null | grep -c 'LIO-ORG') -ge 2 ]"
check "multipath: a map for each of the 2 LUNs" sh -c "[ \$(multipath -ll | grep -c LIO-ORG) -ge 2 ]"
# multipathd may build a map from its first path and add the second one
# later (multipath-tools 0.11, trixie): wait for all four.
lab_wait 60 sh -c "[ \$(multipath -ll 2>/dev/null | grep -cE '[0-9]+:0:0:[0-9]+ sd') -eq 4 ]"
check "multipath: 4 paths in total" sh -c \
	"[ \$(multipath -ll | grep -cE '[0-9]+:0:0:[0-9]+ sd') -eq 4 ] || { multipath -ll; false; }"
map=$(multipath -ll | awk '/LIO-ORG/ {print $1; exit}')
[ -n "$map" ] && check "ext4 on multipath map $map: data survives remount" lab_data_check /dev/mapper/$map
multipath -F >/dev/null 2>&1
check "fio verify on a path-0 disk" lab_fio_verify "$(echo $disks0 | awk '{print $1}')" --size=16m
for h in $h0 $h1; do
	check "rport delete of host $h" srp_logout "$h"
done
check "no SRP hosts after logout" test -z "$(lab_srp_hosts)"
check "ib_srp unloads after logout" lab_unload ib_srp
lab_multipathd_down
