#!/bin/sh
# Runs INSIDE the Debian 12 root made by capture-debian12.sh (as its PID
# namespace's first process): configures rsyslog and the services, starts
# them by hand, uses them as a sysadmin and users would, stops them. Every
# message ends up in /var/log/all.log. Steps that fail are normal (bad
# passwords, refused users): nothing here stops on an error.
set +u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C
step() { echo "== $*" >&2; }
pause() { sleep "${1:-1}"; }

# --- configuration -----------------------------------------------------
cat >/etc/rsyslog.conf <<'EOF'
module(load="imuxsock")
global(localHostname="deb12")
$ActionFileDefaultTemplate RSYSLOG_TraditionalFileFormat
$RepeatedMsgReduction off
*.* /var/log/all.log
EOF
rm -f /etc/rsyslog.d/*.conf

cat >/etc/vsftpd.conf <<'EOF'
listen=YES
background=YES
anonymous_enable=NO
local_enable=YES
write_enable=YES
syslog_enable=YES
xferlog_enable=YES
log_ftp_protocol=NO
pam_service_name=vsftpd
secure_chroot_dir=/var/run/vsftpd/empty
EOF
mkdir -p /var/run/vsftpd/empty

cat >/etc/rsyncd.conf <<'EOF'
pid file = /run/rsyncd.pid
use chroot = yes
[share]
  path = /srv/share
  read only = no
  uid = nobody
  gid = nogroup
[secret]
  path = /srv/share
  auth users = backup
  secrets file = /etc/rsyncd.secrets
EOF
echo "backup:rsyncpw" >/etc/rsyncd.secrets && chmod 600 /etc/rsyncd.secrets
mkdir -p /srv/share && echo data >/srv/share/file.txt && chmod 777 /srv/share

cat >/etc/chrony/chrony.conf <<'EOF'
server 127.0.0.1 iburst
driftfile /var/lib/chrony/chrony.drift
makestep 1 3
rtcsync
EOF

sed -i 's|^\s*error_log .*|error_log syslog:server=unix:/dev/log,nohostname;|' /etc/nginx/nginx.conf
sed -i 's|access_log .*|access_log /var/log/nginx/access.log;|' /etc/nginx/nginx.conf
mkdir -p /var/www/html/private /var/www/html/nolist && chmod 000 /var/www/html/private
cat >/etc/nginx/sites-enabled/default <<'EOF'
server {
  listen 80 default_server;
  root /var/www/html;
  index index.html;
  location /deny { deny all; }
  location /up { proxy_pass http://127.0.0.1:9; }
}
EOF
sed -i 's|^ErrorLog .*|ErrorLog syslog:local1|; s|^LogLevel .*|LogLevel info|' /etc/apache2/apache2.conf
echo "Listen 8080" >/etc/apache2/ports.conf
cat >/etc/apache2/sites-enabled/000-default.conf <<'EOF'
<VirtualHost *:8080>
  DocumentRoot /var/www/html
  <Directory /var/www/html/nolist>
    Options -Indexes
  </Directory>
  <Location /deny>
    Require all denied
  </Location>
</VirtualHost>
EOF

grep -q '^Port 22' /etc/ssh/sshd_config || echo "Port 22" >>/etc/ssh/sshd_config
echo "* - nofile 2000000" >/etc/security/limits.d/99-too-many.conf
echo "alice ALL=(ALL:ALL) ALL" >/etc/sudoers.d/alice
chmod 440 /etc/sudoers.d/alice
postconf -e inet_interfaces=loopback-only mydestination='deb12.example, deb12, localhost' \
  myhostname=deb12.example 2>/dev/null

printf '127.0.0.1 localhost\n127.0.1.1 deb12.example deb12\n' >/etc/hosts
mkdir -p /run/lock /run/apache2

# A fresh start when the root was used before (nothing logs yet).
for u in alice bob carol caroline svcacct dave temp2; do userdel -r "$u" 2>/dev/null; done
for g in devs ops operators tempg alice bob carol caroline svcacct dave temp2; do groupdel "$g" 2>/dev/null; done
rm -rf /etc/cron.d/capture* /var/spool/cron/crontabs/* /var/mail/* /home/carol2 /srv/share/hostname
rm -f /var/spool/cron/atjobs/[!.]* /var/log/all.log
postsuper -d ALL 2>/dev/null

# --- daemons -----------------------------------------------------------
step start daemons
rm -f /run/*.pid
rsyslogd -i /run/rsyslogd.pid
pause
logger -t capture "capture run starts"
mkdir -p /run/sshd && ssh-keygen -A >/dev/null
/usr/sbin/sshd
cron
atd
postfix start
dovecot
vsftpd
rsync --daemon
chronyd -x
nginx
apache2ctl start
pause 3

# --- accounts ----------------------------------------------------------
step accounts
groupadd devs
groupadd -g 2500 ops
useradd -m -s /bin/bash alice
useradd -m -s /bin/bash -G devs bob
useradd -r -s /usr/sbin/nologin svcacct
useradd -m carol
echo alice:secret | chpasswd
echo carol:carolpw | chpasswd
printf 'bobpw1\nbobpw1\n' | passwd bob
usermod -aG devs alice
usermod -c "Carol C" carol
usermod -s /bin/sh carol
usermod -L carol
usermod -U carol
usermod -d /home/carol2 -m carol
usermod -l caroline carol
chage -M 90 -W 7 alice
chage -E 2030-01-01 bob
chfn -f "Alice A" -r 101 alice
gpasswd -a alice ops
gpasswd -d alice ops
gpasswd -A alice devs
gpasswd -M alice,bob ops
groupmod -n operators ops
groupmod -g 2600 operators
groupadd devs
useradd alice
userdel nosuchuser
groupdel operators
usermod -l x nosuchuser
passwd -l bob
passwd -u bob
passwd -e caroline
echo "nosuch:pw" | chpasswd
useradd -m -s /bin/bash dave
echo dave:davepw | chpasswd
userdel -r dave
useradd temp2 && groupadd tempg && usermod -g tempg temp2 && userdel temp2 && groupdel tempg
pause

# --- ssh ---------------------------------------------------------------
step ssh
SSHO="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR"
# shellcheck disable=SC2086
for i in 1 2; do
  sshpass -p secret ssh $SSHO alice@127.0.0.1 id
  sshpass -p wrong ssh $SSHO -o NumberOfPasswordPrompts=1 alice@127.0.0.1 id
  sshpass -p wrong ssh $SSHO -o NumberOfPasswordPrompts=3 bob@127.0.0.1 id
  sshpass -p x ssh $SSHO -o NumberOfPasswordPrompts=2 nosuchuser@127.0.0.1 id
  sshpass -p x ssh $SSHO root@127.0.0.1 id
done
passwd -e caroline
# shellcheck disable=SC2086
sshpass -p carolpw ssh $SSHO caroline@127.0.0.1 id
chage -E 2000-01-01 bob
# shellcheck disable=SC2086
sshpass -p bobpw1 ssh $SSHO bob@127.0.0.1 id
(sleep 1; printf 'bobpw1\n') | runuser -u alice -- timeout 15 script -qec "su -c id bob" /dev/null
chage -E -1 bob
mkdir -p /home/alice/.ssh && ssh-keygen -q -t ed25519 -N '' -f /root/id_test
cat /root/id_test.pub >/home/alice/.ssh/authorized_keys
chown -R alice:alice /home/alice/.ssh
# shellcheck disable=SC2086
ssh $SSHO -i /root/id_test -o BatchMode=yes alice@127.0.0.1 'echo hi; sleep 1'
# shellcheck disable=SC2086
ssh $SSHO -i /root/id_test -o BatchMode=yes bob@127.0.0.1 id
printf 'SSH-2.0-probe\r\n' | timeout 3 nc 127.0.0.1 22 2>/dev/null
printf 'GET / HTTP/1.0\r\n\r\n' | timeout 3 bash -c 'cat >/dev/tcp/127.0.0.1/22' 2>/dev/null
timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/22; sleep 1' 2>/dev/null
# shellcheck disable=SC2086
sshpass -p secret ssh $SSHO -o PreferredAuthentications=password -o PubkeyAuthentication=no \
  alice@127.0.0.1 'exit 3'
pause

# --- su, sudo, runuser, login -------------------------------------------
step su sudo login
runuser -u alice -- id
runuser -l bob -c id
(sleep 1; printf 'wrongpw\n') | runuser -u alice -- timeout 15 script -qec "su -c id root" /dev/null
(sleep 1; printf 'bobpw1\n') | runuser -u alice -- timeout 15 script -qec "su -c id bob" /dev/null
(sleep 1; printf 'bobpw1\n') | runuser -u alice -- timeout 15 script -qec "su - bob -c id" /dev/null
su -c id alice
su - bob -c true
su nosuchuser -c id
printf 'secret\n' | runuser -u alice -- sudo -S id
printf 'secret\n' | runuser -u alice -- sudo -S -u bob id
printf 'wrong\nwrong\nwrong\n' | runuser -u alice -- sudo -S -k id
printf 'wrong\nsecret\n' | runuser -u alice -- sudo -S -k true
printf 'bobpw1\n' | runuser -u bob -- sudo -S -k id
printf 'bobpw1\n' | runuser -u bob -- sudo -S -l
runuser -u alice -- sudo -n true
sudo -u alice id
sudo -i true
(sleep 1; printf 'secret\n') | timeout 15 script -qec "login alice" /dev/null
(sleep 1; printf 'badpw\n') | timeout 15 script -qec "login alice" /dev/null
(sleep 1; printf 'x\n') | timeout 15 script -qec "login nosuchuser" /dev/null
pause

# --- cron and at --------------------------------------------------------
step cron at
cat >/etc/cron.d/capture <<'EOF'
* * * * * root echo cron-output
* * * * * root /bin/false
* * * * * alice /usr/bin/id >/dev/null
EOF
echo '* * * * * nosuchuser true' >/etc/cron.d/capture-bad
echo '* * * * * date >/dev/null' | runuser -u alice -- crontab -
runuser -u alice -- crontab -l >/dev/null
runuser -u bob -- crontab -l
runuser -u alice -- crontab -r
echo '*/5 * * * * true' | crontab -
echo 'echo at-output' | at now
echo 'true' | runuser -u alice -- at now + 1 minute
echo 'true' | at -q b now
atq >/dev/null
pause 70
atrm "$(atq | awk 'NR==1 {print $1}')" 2>/dev/null
crontab -r

# --- mail ---------------------------------------------------------------
step mail
echo "hello alice" | mail -s "test 1" alice
echo "hello nobody" | mail -s "test 2" nosuchuser@deb12.example
echo "remote" | mail -s "test 3" someone@example.invalid
printf 'From: bob@deb12.example\r\nSubject: smtp\r\n\r\nhi\r\n' >/tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from bob@deb12.example --mail-rcpt alice@deb12.example -T /tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from x@example.org --mail-rcpt victim@example.org -T /tmp/msg.txt
curl -s --url smtp://127.0.0.1 --mail-from x@example.org --mail-rcpt nosuch@deb12.example -T /tmp/msg.txt
printf 'EHLO probe\r\nQUIT\r\n' | timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/25; cat >&3; sleep 1; cat <&3 >/dev/null' 2>/dev/null
pause 3
postqueue -f
postsuper -d ALL deferred 2>/dev/null

# --- dovecot -------------------------------------------------------------
step dovecot
curl -s imap://127.0.0.1/ -u alice:secret >/dev/null
curl -s "imap://127.0.0.1/INBOX;UID=1" -u alice:secret >/dev/null
curl -s imap://127.0.0.1/ -u alice:wrong >/dev/null
curl -s imap://127.0.0.1/ -u nosuchuser:x >/dev/null
curl -s pop3://127.0.0.1/ -u alice:secret >/dev/null
curl -s pop3://127.0.0.1/ -u bob:wrong >/dev/null
timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/143; sleep 1' 2>/dev/null
pause

# --- ftp ------------------------------------------------------------------
step ftp
echo upload >/tmp/up.txt
curl -s ftp://127.0.0.1/ -u alice:secret >/dev/null
curl -s -T /tmp/up.txt ftp://127.0.0.1/up.txt -u alice:secret
curl -s ftp://127.0.0.1/up.txt -u alice:secret >/dev/null
curl -s ftp://127.0.0.1/nosuchfile -u alice:secret >/dev/null
curl -s -Q "DELE up.txt" ftp://127.0.0.1/ -u alice:secret >/dev/null
curl -s -Q "MKD newdir" ftp://127.0.0.1/ -u alice:secret >/dev/null
curl -s ftp://127.0.0.1/ -u alice:wrong >/dev/null
curl -s ftp://127.0.0.1/ -u root:x >/dev/null
curl -s ftp://127.0.0.1/ -u anonymous:a@b >/dev/null
pause

# --- rsync ----------------------------------------------------------------
step rsync
rsync rsync://127.0.0.1/ >/dev/null
rsync -a rsync://127.0.0.1/share/ /tmp/fetched/
rsync -a /etc/hostname rsync://127.0.0.1/share/
rsync rsync://127.0.0.1/nosuchmodule/ 2>/dev/null
RSYNC_PASSWORD=rsyncpw rsync rsync://backup@127.0.0.1/secret/ >/dev/null
RSYNC_PASSWORD=bad rsync rsync://backup@127.0.0.1/secret/ 2>/dev/null
pause

# --- web ------------------------------------------------------------------
step web
for port in 80 8080; do
  curl -s "http://127.0.0.1:$port/" >/dev/null
  curl -s "http://127.0.0.1:$port/missing.html" >/dev/null
  curl -s "http://127.0.0.1:$port/private/" >/dev/null
  curl -s "http://127.0.0.1:$port/nolist/" >/dev/null
  curl -s "http://127.0.0.1:$port/deny" >/dev/null
  curl -s "http://127.0.0.1:$port/../../etc/passwd" --path-as-is >/dev/null
  curl -s "http://127.0.0.1:$port/up" >/dev/null
  curl -s -X BREW "http://127.0.0.1:$port/" >/dev/null
  curl -s -H "Host: a b" "http://127.0.0.1:$port/" >/dev/null
done
nginx -s reload
pause 2
apache2ctl graceful
pause 2

# --- chrony -----------------------------------------------------------------
step chrony
chronyc -n sources >/dev/null
chronyc makestep >/dev/null
chronyc offline >/dev/null
chronyc online >/dev/null
pause 5

# --- stop ---------------------------------------------------------------------
step stop
apache2ctl stop
nginx -s quit
postfix stop
doveadm stop 2>/dev/null || pkill -x dovecot
for p in vsftpd rsync chronyd atd cron sshd; do pkill -x "$p"; done
pause 3
logger -t capture "capture run ends"
pause
pkill -x rsyslogd
pause
