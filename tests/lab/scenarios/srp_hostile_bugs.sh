# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# Hostile-target checks that our ib_srp fails today, kept out of CI (no
# lab-drivers line) until the driver is fixed. Each check states the
# behaviour tests/fake-target/README.md expects. Run it in a boot of its
# own: some of these leave a kernel WARNING, which fails the whole run.
. /lab/lib-hostile.sh

lab_net_up
check "ib_srp loads" lab_srp_load
check "srp-fake-target is in the payload" hostile_have_fake || return 0

# A LOGIN_RSP whose max_it_iu_len leaves no room for a data descriptor:
# the login must fail, not send IUs longer than the target accepts.
hostile_fake_start rsp-it-small
hostile_mark
if srp_add_target_ok 0 "$(hostile_target_string)" 2>/dev/null; then
	fail "rsp-it-small: add_target fails with 'Protocol error'" "login succeeded"
	for h in $(lab_srp_hosts); do srp_logout $h; done
else
	pass "rsp-it-small: add_target fails with 'Protocol error'"
fi
check "rsp-it-small: no IU longer than the announced max_it_iu_len" \
	sh -c "! grep '^OVERLONG_IU' $FAKE_LOG"
check "rsp-it-small: no SCSI host or rport left" hostile_no_hosts

# A LOGIN_RSP that supports neither direct nor indirect descriptors.
hostile_fake_start rsp-buffmt0
if srp_add_target_ok 0 "$(hostile_target_string)" 2>/dev/null; then
	sleep 2
	for h in $(lab_srp_hosts); do srp_logout $h; done
fi
check "rsp-buffmt0: no command uses a descriptor format the target refused" \
	sh -c "! grep '^UNSUPPORTED_FMT' $FAKE_LOG"
check "rsp-buffmt0: no SCSI host or rport left" hostile_no_hosts

# A malformed SRP_AER_REQ must be logged (it is dropped silently today).
if hostile_login aer-bad; then
	hostile_trigger
	check "aer-bad: fake target told the lie" hostile_fake_saw "^LIE aer-bad"
	check "aer-bad: kernel log names the malformed SRP_AER_REQ" \
		lab_wait 10 hostile_dmesg_has "AER"
	check "aer-bad: LUN still usable" hostile_usable
else
	fail "aer-bad: login"
fi
hostile_logout

# Credits: a negative or overflowing REQUEST LIMIT DELTA must not stall
# the channel for good.
for m in credit-neg credit-huge; do
	if ! hostile_login $m; then
		fail "$m: login"
		hostile_logout
		continue
	fi
	hostile_trigger
	check "$m: fake target told the lie" hostile_fake_saw "^LIE $m"
	if ! check "$m: LUN usable within 60 s" hostile_usable_within 60; then
		hostile_unstick
	fi
	check "$m: logout" hostile_logout
done

# Absurd max_ti_iu_len: EPROTO, no attempt to allocate 2 GiB receive IUs
# (today: a page allocator WARNING, then ENOMEM). Last: it taints the log.
hostile_login_fails rsp-ti-huge "Protocol error" "SRP_LOGIN_RSP|max_ti_iu_len"

check "no SRP hosts at the end" hostile_no_hosts
check "ib_srp unloads" lab_wait 30 modprobe -r ib_srp
