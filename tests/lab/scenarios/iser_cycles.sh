# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER login/logout cycles (ISER_CYCLES, default 60) without slab or
# per-CPU memory growth, then unload. The node record is set to
# node.session.scan=manual for the cycles, so each costs the connection,
# login, session and logout and not a SCSI scan and udev run of two disks
# (~3 s per cycle under TCG). Even so 200 cycles, the issue's figure,
# took 7.5 minutes with ours and 4.9 with the in-tree driver (one run
# each, other guests sharing the host), so the default is 60.
# Memory is compared after a few warm-up cycles, once RCU has freed what
# the last logout released.
#
# The kmalloc slabs grow by ~8 objects per cycle with either driver (200
# cycles: ours 25291 -> 26789, in-tree 24760 -> 26457, same boot image),
# so that growth is the kernel's, rxe's or LIO's, not the initiator's. A
# leaked iser_conn costs more than its receive ring (cmds_max + 8
# buffers, 136 by default), so the bound is 20 objects per cycle.
# Not in CI yet: this form (60 cycles, that bound) has not run in the lab.
#
source /lab/lib-iser.sh

cycles=${ISER_CYCLES:-60}
warmup=5

lab_net_up
lab_iser_target_up 2
lab_iscsid_up
check "ib_iser loads" lab_iser_load
check "discovery over iSER" iser_discover $IP0
node() { iscsiadm -m node -T "$ISER_IQN" -p "$IP0:$ISER_PORT" -I iser "$@"; }
check "node record without LUN scan" node -o update -n node.session.scan -v manual

cycle() {
	node --login >/dev/null && node --logout >/dev/null
}

# kmalloc slab objects in use, and per-CPU kB
mem() {
	sleep 2
	echo "$(iser_slab_objs) $(awk '$1 == "Percpu:" { print $2 }' /proc/meminfo)"
}
slabs() { awk '$1 ~ /^kmalloc-/ { print $1, $2 }' /proc/slabinfo | sort; }

for ((i = 0; i < warmup; i++)); do
	cycle || break
done
check "$warmup warm-up cycles" test "$i" = "$warmup"
read -r slab0 pcpu0 < <(mem)
slabs > /tmp/cycles-slab0
start=$SECONDS
for ((i = 0; i < cycles; i++)); do
	cycle || break
done
took=$((SECONDS - start))
check "$cycles login/logout cycles" test "$i" = "$cycles"
lab_note "$i cycles in ${took}s"
read -r slab1 pcpu1 < <(mem)
slabs > /tmp/cycles-slab1
lab_note "kmalloc caches that grew: $(join /tmp/cycles-slab0 /tmp/cycles-slab1 |
	awk '$3 != $2 { printf "%s %+d, ", $1, $3 - $2 }')"
lab_note "kmalloc objects $slab0 -> $slab1, per-CPU kB $pcpu0 -> $pcpu1"
check "slab growth under 20 objects per cycle ($slab0 -> $slab1)" \
	test $((slab1 - slab0)) -lt $((20 * cycles))
check "per-CPU memory flat over $cycles cycles ($pcpu0 -> $pcpu1 kB)" \
	test $((pcpu1 - pcpu0)) -lt 64
node -o update -n node.session.scan -v auto
check "no iser session left" sh -c "! iscsiadm -m session 2>/dev/null | grep -q ."
check "ib_iser unloads after logout" iser_unload
