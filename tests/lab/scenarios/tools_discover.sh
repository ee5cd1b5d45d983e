# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# srp-discover against the LIO SRP target on both soft-RoCE ports: DM
# queries find both target ports, the printed lines log in, the daemon logs
# in to both paths once and again after a path is lost, a silent peer fails
# clearly within the timeout.
source /lab/lib-tools.sh
lab_net_up
lab_srpt_up 2
G=$(srpt_guid)
check "ib_umad and rdma_ucm load" tools_modules_up

for p in 0 1; do
	ip=$IP0 rxe=$RXE0
	[ $p = 1 ] && { ip=$IP1; rxe=$RXE1; }
	out=$($SRP_DISCOVER -v $ip 2>/tmp/discover$p.err)
	rc=$?
	cat /tmp/discover$p.err
	echo "$out"
	check "discover $ip: exit status 0" test $rc -eq 0
	check "discover $ip: one add_target line" test "$(tools_lines "$out" | wc -l)" -eq 1
	check "discover $ip: line is id_ext,ioc_guid,dest=$ip:5555" \
		test "$(tools_lines "$out")" = "id_ext=$G,ioc_guid=$G,dest=$ip:5555"
	check "discover $ip: found through $rxe" grep -q "via $rxe port 1, RoCE" /tmp/discover$p.err
	check "discover $ip: IOC profile says SRP r16a" grep -q 'IO class : 0100' /tmp/discover$p.err
done

# A GID nobody answers on: the request leaves rxe0 and vanishes.
start=$SECONDS
out=$($SRP_DISCOVER -d $RXE0:1 -t 500 -r 1 gid:fe80::200:5eff:fe00:5301 2>&1)
rc=$?
echo "$out"
check "silent peer: exit status 3 (no answer)" test $rc -eq 3
check "silent peer: error says no answer / timed out" grep -q 'no answer.*timed out' <<<"$out"
check "silent peer: gave up within 5 s" test $((SECONDS - start)) -le 5

check "ib_srp loads" lab_srp_load
for p in 0 1; do
	ip=$IP0 rxe=$RXE0
	[ $p = 1 ] && { ip=$IP1; rxe=$RXE1; }
	line=$($SRP_DISCOVER $ip | grep '^id_ext=')
	echo "line: $line"
	check "discover $ip after ib_srp load: max_it_iu_size last, as srp_daemon does" \
		grep -qE "^id_ext=$G,ioc_guid=$G,dest=$ip:5555(,max_it_iu_size=[0-9]+)?\$" <<<"$line"
	h=$(tools_login_line "$line" $rxe) && pass "printed line for $ip logs in on $rxe (host $h)" ||
		fail "printed line for $ip logs in on $rxe"
	check "host $h: id_ext is the target's" test "$(cat /sys/class/scsi_host/host$h/id_ext)" = "0x$G"
	out=$($SRP_DISCOVER $ip)
	check "discover $ip: a logged-in target is not printed again" test -z "$(tools_lines "$out")"
	out=$($SRP_DISCOVER -a $ip)
	check "discover -a $ip: printed with --all" test "$(tools_lines "$out" | wc -l)" -eq 1
done
check "two SRP hosts" test "$(tools_srp_host_count)" -eq 2
check "logout of both" tools_logout_all
