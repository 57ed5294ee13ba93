#!/bin/sh
# Variant d of capture-debian12.sh: boots systemd as PID 1 of new PID,
# mount, cgroup, network (loopback only), UTS and IPC namespaces chrooted
# into ROOT, runs ROOT/root/drive.sh there (prepare by chroot before the
# boot, drive by nsenter once the boot is done), then powers the root off
# and waits for its end. systemd sees a container (container=capture-d):
# no console, no hardware, units that need them are skipped by their own
# conditions. The cgroup trees it manages are capture-d sub-groups of the
# host's name=systemd and cgroup2 hierarchies, mounted as its own roots.
# usage: capture-debian12-boot-d.sh ROOT
set -eu
R=$1
CONSOLE=$R/var/log/capture-console.log
chroot "$R" /bin/sh /root/drive.sh prepare
: >"$CONSOLE"
for h in systemd unified; do mkdir -p "/sys/fs/cgroup/$h/capture-d"; done
old_nf_log=$(sysctl -n net.netfilter.nf_log_all_netns)
timeout 2 cat /proc/kmsg >/dev/null 2>&1 || true
sysctl -q -w net.netfilter.nf_log_all_netns=1
sh -euc '
  for h in systemd unified; do echo $$ >"/sys/fs/cgroup/$h/capture-d/cgroup.procs"; done
  exec unshare --net --uts --ipc --pid --fork --kill-child --mount --cgroup --propagation private sh -euc "
    R=\$1
    hostname deb12
    mount --bind \"\$R\" \"\$R\"
    mount -t proc proc \"\$R/proc\"
    mount -t sysfs sysfs \"\$R/sys\"
    mount -t tmpfs -o mode=755 tmpfs \"\$R/sys/fs/cgroup\"
    mkdir \"\$R/sys/fs/cgroup/systemd\" \"\$R/sys/fs/cgroup/unified\"
    mount -t cgroup -o none,name=systemd cgroup \"\$R/sys/fs/cgroup/systemd\"
    mount -t cgroup2 cgroup2 \"\$R/sys/fs/cgroup/unified\"
    mount -t tmpfs -o mode=755 tmpfs \"\$R/dev\"
    for n in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
      mknod -m 666 \"\$R/dev/\${n%%:*}\" c \"\$(echo \"\$n\" | cut -d: -f2)\" \"\${n##*:}\"
    done
    mkdir \"\$R/dev/pts\" \"\$R/dev/shm\"
    mount -t devpts -o newinstance,ptmxmode=666 devpts \"\$R/dev/pts\"
    ln -s pts/ptmx \"\$R/dev/ptmx\"
    touch \"\$R/dev/console\" && mount --bind \"\$R/var/log/capture-console.log\" \"\$R/dev/console\"
    mount -t tmpfs tmpfs \"\$R/run\"
    mount -t tmpfs tmpfs \"\$R/tmp\"
    exec chroot \"\$R\" env -i container=capture-d PATH=/usr/sbin:/usr/bin:/sbin:/bin \
      /lib/systemd/systemd --system --log-target=journal
  " sh "$1"
' sh "$R" &
boot=$!
pid1=
for _ in $(seq 60); do
  sleep 1
  pid1=$(pgrep -P "$boot" -x systemd || pgrep -P "$(pgrep -P "$boot" | head -1)" -x systemd || true)
  [ -n "$pid1" ] || continue
  state=$(nsenter -t "$pid1" -a -r -w systemctl is-system-running 2>/dev/null || true)
  case "$state" in running|degraded) break ;; esac
done
echo "booted: pid $pid1, ${state:-no state}" >&2
sleep 5
nsenter -t "$pid1" -a -r -w /bin/sh /root/drive.sh drive || true
nsenter -t "$pid1" -a -r -w systemctl poweroff || true
wait "$boot" || true
sysctl -q -w net.netfilter.nf_log_all_netns="$old_nf_log"
# the sub-groups systemd left (init.scope, system.slice...) are empty now
for h in systemd unified; do
  find "/sys/fs/cgroup/$h/capture-d" -depth -type d -exec rmdir {} \; 2>/dev/null || true
done
