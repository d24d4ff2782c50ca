# apt-wait.sh is sourced by install-deps.sh and cross.sh. It defines
# apt_wait, which runs an apt-get or dpkg command line and, while another
# apt-get or dpkg holds the dpkg or apt lists lock, waits and retries
# instead of failing (up to APT_WAIT_SECONDS, default 900).

# apt_wait CMD ARGS... runs CMD ARGS, retrying every 5 seconds while it fails
# because another process holds a dpkg or apt lock. apt-get is given
# DPkg::Lock::Timeout as well, so that it waits inside apt where it can.
apt_wait() {
	local deadline=$((SECONDS + ${APT_WAIT_SECONDS:-900})) log status cmd=("$@")
	if [ "${cmd[0]}" = apt-get ] || [ "${cmd[1]:-}" = apt-get ]; then
		cmd+=(-o DPkg::Lock::Timeout=60)
	fi
	log=$(mktemp)
	while :; do
		status=0
		"${cmd[@]}" 2>"$log" || status=$?
		if [ "$status" -eq 0 ]; then
			cat "$log" >&2
			rm -f "$log"
			return 0
		fi
		if ! grep -qiE 'could not get lock|unable to acquire the dpkg frontend lock|unable to lock directory|dpkg frontend lock.*locked|lock-frontend' "$log" ||
			[ "$SECONDS" -ge "$deadline" ]; then
			cat "$log" >&2
			rm -f "$log"
			return "$status"
		fi
		printf 'apt-wait: another apt-get or dpkg holds the lock; retrying in 5s\n' >&2
		sleep 5
	done
}
