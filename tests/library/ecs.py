#!/usr/bin/env python3
"""ecs.py: the Elastic Common Schema side of the pattern library
(contrib/patterns/README, "ECS fields").

  ecs.py --check FILE...     one TAP line per file: every rule carries
                             event.category, event.type, event.outcome and
                             event.action as <value>s with allowed ECS values,
                             process.name (${PROGRAM}), and every extracted
                             name that has an ECS counterpart (ECS_NAMES) is
                             copied to it.
  ecs.py --annotate FILE...  adds what --check asks for to rules that lack
                             it (values derived from the rule's tags and
                             class; a rule's own values are kept), in place.

The mapping from tags to categorisation is one table (TAG_ECS), so every
file gets the same values for the same kind of event."""
import re
import sys
import xml.etree.ElementTree as ET

ECS_NAMES = {
    'usracct.username': 'user.name',
    'usracct.uid': 'user.id',
    'usracct.target_username': 'user.target.name',
    'usracct.target_group': 'user.target.group.name',
    'usracct.group': 'group.name',
    'usracct.gid': 'group.id',
    'usracct.tty': 'process.tty.name',
    'net.src_ip': 'source.ip',
    'net.src_port': 'source.port',
    'net.src_host': 'source.domain',
    'net.dst_ip': 'destination.ip',
    'net.dst_port': 'destination.port',
    'proc.pid': 'process.pid',
    'proc.name': 'process.name',
    'proc.command': 'process.command_line',
    'proc.exit_code': 'process.exit_code',
    'mail.queue_id': 'email.local_id',
    'mail.from': 'email.from.address',
    'mail.to': 'email.to.address',
    'http.level': 'log.level',
    'http.request': 'http.request.line',
    'sys.unit': 'service.name',
}
CATEGORIES = ('api', 'authentication', 'configuration', 'database', 'driver', 'email', 'file',
              'host', 'iam', 'intrusion_detection', 'library', 'malware', 'network', 'package',
              'process', 'registry', 'session', 'threat', 'vulnerability', 'web')
TYPES = ('access', 'admin', 'allowed', 'change', 'connection', 'creation', 'deletion', 'denied',
         'end', 'error', 'group', 'indicator', 'info', 'installation', 'protocol', 'start', 'user')
OUTCOMES = ('success', 'failure', 'unknown')
ACTION_RE = re.compile(r'^[a-z][a-z0-9-]*$')

# tag -> (category, type, outcome, action); the first tag of a rule found in
# this order decides. outcome None: "failure" for class violation, else
# "success".
TAG_ECS = [
    ('auth.invalid_user', ('authentication', 'info', 'failure', 'invalid-user')),
    ('auth.too_many_failures', ('authentication', 'info', 'failure', 'too-many-authentication-failures')),
    ('auth.failure', ('authentication', 'info', 'failure', 'authentication-failed')),
    ('auth.denied', ('authentication', 'denied', 'failure', 'access-denied')),
    ('auth.aborted', ('authentication', 'info', 'failure', 'authentication-aborted')),
    ('auth.preauth', ('authentication', 'info', 'unknown', 'pre-authentication')),
    ('auth.postponed', ('authentication', 'info', 'unknown', 'authentication-postponed')),
    ('priv.denied', ('process', 'denied', 'failure', 'privilege-denied')),
    ('priv.escalation', ('process', 'start', 'success', 'privilege-escalated')),
    ('priv.switch', ('process', 'start', 'success', 'user-switched')),
    ('auth.success', ('authentication', 'start', 'success', 'logged-in')),
    ('password.change', ('iam', 'change', None, 'password-changed')),
    ('usracct.add', ('iam', 'creation', None, 'user-created')),
    ('usracct.delete', ('iam', 'deletion', None, 'user-deleted')),
    ('usracct.change', ('iam', 'change', None, 'user-modified')),
    ('usracct.group_add', ('iam', 'creation', None, 'group-created')),
    ('usracct.group_delete', ('iam', 'deletion', None, 'group-deleted')),
    ('usracct.group_change', ('iam', 'change', None, 'group-modified')),
    ('usracct.error', ('iam', 'error', 'failure', 'account-change-failed')),
    ('session.open', ('session', 'start', 'success', 'session-opened')),
    ('session.close', ('session', 'end', 'success', 'session-closed')),
    ('session.error', ('session', 'error', 'failure', 'session-setup-failed')),
    ('pam.error', ('authentication', 'error', 'failure', 'pam-module-error')),
    ('pam.info', ('authentication', 'info', 'unknown', 'pam-module-notice')),
    ('login', ('authentication', 'start', 'success', 'logged-in')),
    ('logout', ('session', 'end', 'success', 'logged-out')),
    ('mac.denied', ('intrusion_detection', 'denied', 'failure', 'access-denied')),
    ('fw.packet', ('network', 'connection', 'unknown', 'firewall-packet-logged')),
    ('mail.rejected', ('email', 'denied', 'failure', 'mail-rejected')),
    ('mail.bounced', ('email', 'info', 'failure', 'mail-bounced')),
    ('mail.expired', ('email', 'info', 'failure', 'mail-expired')),
    ('mail.deferred', ('email', 'info', 'failure', 'mail-deferred')),
    ('mail.delivered', ('email', 'info', 'success', 'mail-delivered')),
    ('mail.received', ('email', 'info', 'success', 'mail-received')),
    ('mail.queued', ('email', 'info', 'success', 'mail-queued')),
    ('mail.removed', ('email', 'deletion', 'success', 'mail-removed')),
    ('mail.connect', ('network', 'connection', 'success', 'connected')),
    ('mail.disconnect', ('network', 'end', 'success', 'disconnected')),
    ('mail.stats', ('email', 'info', 'success', 'mail-statistics')),
    ('mail.error', ('email', 'error', 'failure', 'mail-error')),
    ('file.transfer', ('file', 'access', None, 'file-transferred')),
    ('file.change', ('file', 'change', None, 'file-changed')),
    ('job.error', ('process', 'error', 'failure', 'job-failed')),
    ('job.run', ('process', 'start', 'success', 'job-started')),
    ('job.done', ('process', 'end', None, 'job-ended')),
    ('job.scheduled', ('configuration', 'change', None, 'job-scheduled')),
    ('job.mail', ('email', 'info', None, 'job-output-mailed')),
    ('proc.crash', ('process', 'error', 'failure', 'process-crashed')),
    ('proc.hung', ('process', 'error', 'failure', 'process-hung')),
    ('proc.kill', ('process', 'end', 'success', 'process-killed')),
    ('proc.exec', ('process', 'start', 'success', 'process-started')),
    ('proc.exit', ('process', 'end', None, 'process-exited')),
    ('mem.oom', ('host', 'error', 'failure', 'out-of-memory')),
    ('http.error', ('web', 'error', 'failure', 'http-error')),
    ('http.denied', ('web', 'denied', 'failure', 'http-access-denied')),
    ('http.info', ('web', 'info', None, 'web-server-notice')),
    ('dns.denied', ('network', 'denied', 'failure', 'dns-query-denied')),
    ('dns.error', ('network', 'error', 'failure', 'dns-error')),
    ('dns.zone', ('network', 'protocol', None, 'dns-zone-event')),
    ('dns.notify', ('network', 'protocol', None, 'dns-notify')),
    ('time.error', ('host', 'error', 'failure', 'time-sync-error')),
    ('time.step', ('host', 'change', None, 'clock-stepped')),
    ('time.sync', ('host', 'change', None, 'clock-synchronised')),
    ('time.source', ('host', 'info', None, 'time-source-changed')),
    ('time.drift', ('host', 'info', None, 'clock-drift')),
    ('pkg.error', ('package', 'error', 'failure', 'package-upgrade-failed')),
    ('pkg.upgrade', ('package', 'change', None, 'packages-upgraded')),
    ('pkg.start', ('package', 'start', 'success', 'package-upgrade-started')),
    ('pkg.info', ('package', 'info', None, 'package-upgrade-notice')),
    ('syslog.start', ('process', 'start', 'success', 'syslog-started')),
    ('syslog.stop', ('process', 'end', 'success', 'syslog-stopped')),
    ('syslog.repeated', ('host', 'info', 'success', 'message-repeated')),
    ('ssh.error', ('network', 'error', 'failure', 'ssh-protocol-error')),
    ('net.probe', ('network', 'connection', 'unknown', 'network-probe')),
    ('net.connect', ('network', 'start', 'success', 'connected')),
    ('net.disconnect', ('network', 'end', 'success', 'disconnected')),
    ('net.error', ('network', 'error', 'failure', 'network-error')),
    ('net.dhcp', ('network', 'protocol', None, 'dhcp-exchange')),
    ('net.link_up', ('network', 'start', 'success', 'link-up')),
    ('net.link_down', ('network', 'end', 'success', 'link-down')),
    ('net.listen', ('network', 'start', None, 'listening')),
    ('sys.fail', ('process', 'error', 'failure', 'service-failed')),
    ('sys.error', ('host', 'error', 'failure', 'system-error')),
    ('sys.boot', ('host', 'start', 'success', 'system-booted')),
    ('sys.shutdown', ('host', 'end', 'success', 'system-shutdown')),
    ('sys.power', ('host', 'change', None, 'power-state-changed')),
    ('sys.restart', ('process', 'change', None, 'service-restarted')),
    ('sys.reload', ('configuration', 'change', None, 'configuration-reloaded')),
    ('sys.starting', ('process', 'start', 'unknown', 'service-starting')),
    ('sys.start', ('process', 'start', None, 'service-started')),
    ('sys.stopping', ('process', 'end', 'unknown', 'service-stopping')),
    ('sys.stop', ('process', 'end', None, 'service-stopped')),
    ('job.daemon', ('process', 'info', None, 'scheduler-notice')),
    ('fs.error', ('host', 'error', 'failure', 'filesystem-error')),
    ('fs.mount', ('host', 'change', None, 'filesystem-mounted')),
    ('hw.error', ('driver', 'error', 'failure', 'hardware-error')),
    ('hw.attach', ('driver', 'installation', None, 'device-attached')),
    ('hw.detach', ('driver', 'deletion', None, 'device-detached')),
    ('net.dns_mismatch', ('network', 'info', None, 'reverse-dns-mismatch')),
    ('net.bridge', ('network', 'change', None, 'bridge-port-state-changed')),
    ('net.promisc', ('network', 'change', None, 'promiscuous-mode-changed')),
    ('net.link', ('network', 'change', None, 'link-state-changed')),
    ('net.state', ('network', 'change', None, 'network-state-changed')),
    ('net.stats', ('network', 'info', None, 'connection-statistics')),
    ('mail.queue_run', ('email', 'info', None, 'queue-run')),
    ('file.protocol', ('file', 'info', None, 'ftp-protocol-message')),
    ('hw.usb', ('driver', 'info', None, 'usb-device-event')),
    ('hw.disk', ('driver', 'info', None, 'disk-event')),
    ('hw.device_node', ('driver', 'creation', None, 'device-node-created')),
    ('hw.seat', ('host', 'info', None, 'seat-event')),
    ('hw.input', ('driver', 'info', None, 'input-device-watched')),
    ('sys.stats', ('process', 'info', None, 'resource-usage')),
    ('sys.unit', ('process', 'info', None, 'unit-event')),
    ('usracct', ('session', 'info', None, 'user-activity')),
]
AREA_ECS = {
    'auth': ('authentication', 'info', None, 'authentication-event'),
    'net': ('network', 'info', None, 'network-event'),
    'hw': ('driver', 'info', None, 'hardware-event'),
    'fs': ('host', 'info', None, 'filesystem-event'),
    'sys': ('host', 'info', None, 'system-event'),
    'mail': ('email', 'info', None, 'mail-event'),
    'time': ('host', 'info', None, 'time-event'),
    'proc': ('process', 'info', None, 'process-event'),
    'job': ('process', 'info', None, 'job-event'),
    'dns': ('network', 'protocol', None, 'dns-event'),
    'http': ('web', 'info', None, 'web-server-event'),
    'file': ('file', 'info', None, 'file-event'),
}
FOUR = ('event.category', 'event.type', 'event.outcome', 'event.action')


def parser_names(pattern):
    """Names of the parsers of PATTERN, left to right: "@@" outside a
    parser is a literal "@", "@TYPE:NAME:PARAM@" a parser."""
    out = []
    i = 0
    while True:
        i = pattern.find('@', i)
        if i < 0:
            return out
        if pattern.startswith('@@', i):
            i += 2
            continue
        j = pattern.find('@', i + 1)
        if j < 0:
            return out
        parts = pattern[i + 1:j].split(':', 2)
        if len(parts) > 1 and parts[1]:
            out.append(parts[1])
        i = j + 1


def derive(tags, cls):
    """The four categorisation values for a rule with TAGS and class CLS."""
    found = None
    for tag, ecs in TAG_ECS:
        if tag in tags:
            found = ecs
            break
    if found is None:
        for tag in tags:
            area = tag.split('.', 1)[0]
            if area in AREA_ECS:
                found = AREA_ECS[area]
                break
    if found is None:
        found = ('host', 'info', None, 'system-event')
    cat, typ, outcome, action = found
    if outcome is None:
        outcome = 'failure' if cls == 'violation' else 'success'
    return {'event.category': cat, 'event.type': typ, 'event.outcome': outcome, 'event.action': action}


def rule_facts(rule):
    tags = [(t.text or '').strip() for t in rule.iter('tag')]
    names = []
    for pat in rule.find('patterns').iter('pattern') if rule.find('patterns') is not None else []:
        for n in parser_names(pat.text or ''):
            if n not in names:
                names.append(n)
    values = {v.get('name'): (v.text or '') for v in rule.iter('value')}
    return tags, names, values


def check(path):
    problems = []
    root = ET.parse(path).getroot()
    for rule in root.iter('rule'):
        rid = rule.get('id')
        tags, names, values = rule_facts(rule)
        for f in FOUR:
            if f not in values:
                problems.append('rule %s: no %s value' % (rid, f))
        if values.get('event.category', 'host') not in CATEGORIES:
            problems.append('rule %s: event.category %r is not an ECS category' % (rid, values['event.category']))
        if values.get('event.type', 'info') not in TYPES:
            problems.append('rule %s: event.type %r is not an ECS type' % (rid, values['event.type']))
        if values.get('event.outcome', 'success') not in OUTCOMES:
            problems.append('rule %s: event.outcome %r is not an ECS outcome' % (rid, values['event.outcome']))
        if not ACTION_RE.match(values.get('event.action', 'x')):
            problems.append('rule %s: event.action %r is not a lower-case dashed word' % (rid, values['event.action']))
        if 'proc.name' not in names and values.get('process.name') != '${PROGRAM}':
            problems.append('rule %s: no <value name="process.name">${PROGRAM}</value>' % rid)
        for n in names:
            ecs = ECS_NAMES.get(n)
            if ecs and values.get(ecs) != '${%s}' % n:
                problems.append('rule %s: extracts %s but has no <value name="%s">${%s}</value>' % (rid, n, ecs, n))
    return problems


RULE_RE = re.compile(r'(?P<indent>[ \t]*)<rule\b[^>]*\bid="(?P<id>[^"]+)"[^>]*>.*?</rule>', re.S)


def annotate(path):
    text = open(path, encoding='utf-8').read()
    root = ET.fromstring(text.encode('utf-8'))
    rules = {r.get('id'): r for r in root.iter('rule')}

    def fix(m):
        block = m.group(0)
        rule = rules[m.group('id')]
        tags, names, values = rule_facts(rule)
        add = []
        derived = derive(tags, rule.get('class'))
        for f in FOUR:
            if f not in values:
                add.append((f, derived[f]))
        if 'process.name' not in values and 'proc.name' not in names:
            add.append(('process.name', '${PROGRAM}'))
        for n in names:
            ecs = ECS_NAMES.get(n)
            if ecs and ecs not in values:
                add.append((ecs, '${%s}' % n))
        if not add:
            return block
        ind = m.group('indent') + '  '
        lines = ''.join('%s  <value name="%s">%s</value>\n' % (ind, k, v) for k, v in add)
        if '</values>' in block:
            return block.replace('%s</values>' % ind, lines + '%s</values>' % ind, 1)
        new = '%s<values>\n%s%s</values>\n' % (ind, lines, ind)
        anchor = '</tags>\n' if '</tags>' in block else '</patterns>\n'
        pos = block.find(anchor)
        if pos >= 0:
            pos += len(anchor)
            return block[:pos] + new + block[pos:]
        return block

    out = RULE_RE.sub(fix, text)
    if out != text:
        open(path, 'w', encoding='utf-8').write(out)


def main():
    mode, files = sys.argv[1], sys.argv[2:]
    if mode == '--annotate':
        for f in files:
            annotate(f)
        return 0
    print('1..%d' % len(files))
    failed = 0
    for n, path in enumerate(files, 1):
        problems = check(path)
        name = path.rsplit('/', 1)[-1]
        if problems:
            failed += 1
            print('not ok %d - %s: every rule has ECS categorisation and field names' % (n, name))
            for p in problems[:20]:
                print('# ' + p)
        else:
            print('ok %d - %s: every rule has ECS categorisation and field names' % (n, name))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
