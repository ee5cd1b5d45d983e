# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# iSER login/logout cycles (ISER_CYCLES, default 200) without slab or
# per-CPU memory growth, then unload. The node record is set to
# node.session.scan=manual for the cycles, so each costs the connection,
# login, session and logout and not a SCSI scan and udev run of two disks
# (~3 s per cycle under TCG).
# Memory is compared after a few warm-up cycles, once RCU has freed what
# the last logout released.
#
# lab-drivers: ours intree
source /lab/lib-iser.sh

cycles=${ISER_CYCLES:-200}
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

for ((i = 0; i < warmup; i++)); do
	cycle || break
done
check "$warmup warm-up cycles" test "$i" = "$warmup"
read -r slab0 pcpu0 < <(mem)
start=$SECONDS
for ((i = 0; i < cycles; i++)); do
	cycle || break
done
took=$((SECONDS - start))
check "$cycles login/logout cycles" test "$i" = "$cycles"
lab_note "$i cycles in ${took}s"
read -r slab1 pcpu1 < <(mem)
lab_note "kmalloc objects $slab0 -> $slab1, per-CPU kB $pcpu0 -> $pcpu1"
# A leaked connection costs well over a hundred objects (its receive ring
# alone); allow one object per cycle of unrelated kernel noise.
check "slab flat over $cycles cycles ($slab0 -> $slab1)" \
	test $((slab1 - slab0)) -lt "$cycles"
check "per-CPU memory flat over $cycles cycles ($pcpu0 -> $pcpu1 kB)" \
	test $((pcpu1 - pcpu0)) -lt 64
node -o update -n node.session.scan -v auto
check "no iser session left" sh -c "! iscsiadm -m session 2>/dev/null | grep -q ."
check "ib_iser unloads after logout" iser_unload
