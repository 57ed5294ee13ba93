#!/usr/bin/env python3
"""load-variants.py DIR: writes the small databases of
tests/differential/test-load-vs-pdbtool.sh into DIR.

Each variant is one structure that syslog-ng 3.38's loader tolerates or
refuses (elements out of their usual place, wrappers inside wrappers,
unknown elements and attributes, stray text, comments and CDATA inside
text, empty elements, missing and repeated attributes, version variants,
examples without values, actions with two messages...), or a construct
seen in public pattern databases (multi-line attributes and patterns,
program patterns with parsers, <values/>, empty test values, descriptions
and urls in odd places). For each NAME it writes NAME.xml and NAME.log
(syslog lines: the variant's messages and mutations of them) and prints
one line "NAME<TAB>WARNING" where WARNING is a text our loader must warn
with (empty: no warning expected).
"""
import os
import sys

RULESET = ("<patterndb version='4' pub_date='2026-01-01'>"
           "<ruleset name='p' id='p'><pattern>p</pattern><rules>"
           "<rule id='r' class='c' provider='x'>{}</rule>"
           "<rule id='s' class='d' provider='x'><pattern>other @NUMBER:n@</pattern></rule>"
           "</rules></ruleset></patterndb>\n")

# (name, body of rule 'r' or a whole document, messages, warning)
RULE = [
    ("canonical", "<patterns><pattern>a @ESTRING:u: @x</pattern></patterns>"
     "<values><value name='v'>V${u}</value></values><tags><tag>t</tag></tags>", ["a bob x"], ""),
    ("values-in-patterns", "<patterns><pattern>a @ESTRING:u: @x</pattern>"
     "<values><value name='v'>V${u}</value></values></patterns>", ["a bob x"], "<values> inside <patterns>"),
    ("tags-in-patterns", "<patterns><pattern>a</pattern><tags><tag>t</tag></tags></patterns>", ["a"],
     "<tags> inside <patterns>"),
    ("tag-in-values", "<pattern>a</pattern><values><tag>t</tag><value name='v'>1</value></values>", ["a"],
     "<tag> inside <values>"),
    ("pattern-in-tags", "<pattern>a</pattern><tags><pattern>b @NUMBER:n@</pattern><tag>t</tag></tags>",
     ["a", "b 12"], "<pattern> inside <tags>"),
    ("patterns-in-patterns", "<patterns><patterns><pattern>a</pattern></patterns></patterns>", ["a"],
     "<patterns> inside <patterns>"),
    ("examples-in-patterns", "<patterns><pattern>a</pattern><examples><example>"
     "<test_message program='p'>a</test_message></example></examples></patterns>", ["a"],
     "<examples> inside <patterns>"),
    ("actions-in-values", "<pattern>a</pattern><values><actions><action><message>"
     "<value name='m'>1</value></message></action></actions></values>", ["a"], "<actions> inside <values>"),
    ("urls-description-in-tags", "<pattern>a</pattern><tags><url>u</url><description>d</description>"
     "<tag>t</tag></tags><urls><value name='v'>x</value></urls>", ["a"], "<url> inside <tags>"),
    ("message-wrappers-nested", "<pattern>a</pattern><actions><action><message><values><tags>"
     "<tag>t</tag><value name='v'>x</value></tags></values></message></action></actions>", ["a"],
     "<tags> inside <values>"),
    ("direct-children", "<pattern>a @NUMBER:n@</pattern><tag>t</tag><value name='v'>${n}</value>"
     "<url>http://x</url><description>d</description>", ["a 5", "a x"], ""),
    ("values-empty", "<patterns><pattern>a</pattern></patterns><values/><tags/><urls/>", ["a"], ""),
    ("unknown-attributes", "<pattern foo='1'>a</pattern><tag bar='2'>t</tag><value name='v' x='y'>1</value>",
     ["a"], ""),
    ("value-no-name", "<pattern>a</pattern><value>x</value>", ["a"], ""),
    ("value-empty-element", "<pattern>a</pattern><value name='v'></value><value name='w'/>", ["a"], ""),
    ("value-cdata", "<pattern>a</pattern><value name='v'><![CDATA[x]]></value>", ["a"], "CDATA section"),
    ("value-cdata-between", "<pattern>a</pattern><value name='v'>x<![CDATA[y]]>z</value>", ["a"],
     "cut in pieces"),
    ("value-comment", "<pattern>a</pattern><value name='v'>x<!-- c -->z</value>", ["a"], "cut in pieces"),
    ("pattern-comment", "<pattern>a<!-- c -->b</pattern>", ["a", "b", "ab"], "cut in pieces"),
    ("pattern-cdata", "<pattern><![CDATA[a]]></pattern><pattern>b</pattern>", ["a", "b"], "CDATA section"),
    ("pattern-empty", "<pattern></pattern><pattern/><pattern>b</pattern>", ["b", ""], ""),
    ("tag-pieces", "<pattern>a</pattern><tag>y<!-- -->z</tag>", ["a"], "cut in pieces"),
    ("pattern-entities", "<pattern>a&lt;&#65;&#x42;&amp;&quot;&apos;</pattern>", ["a<AB&\"'"], ""),
    ("pattern-multiline", "<pattern>a\n@ESTRING:u:\n@ b</pattern>", ["a\nx\n b"], ""),
    ("pattern-blanks", "<pattern>  a  </pattern>", ["  a  ", "a"], ""),
    ("stray-text-rule", "<pattern>a</pattern>junk", ["a"], ""),
    ("stray-text-wrapper", "<pattern>a</pattern><tags>junk</tags>", ["a"], ""),
    ("stray-text-example", "<pattern>a</pattern><examples><example>junk<test_message program='p'>a"
     "</test_message></example></examples>", ["a"], "text inside <example>"),
    ("stray-text-examples", "<pattern>a</pattern><examples>junk<example/></examples>", ["a"], ""),
    ("stray-cdata-rule", "<pattern>a</pattern><![CDATA[junk]]><tag>t</tag>", ["a"], ""),
    ("unknown-element", "<pattern>a</pattern><foo/>", ["a"], ""),
    ("example-outside-examples", "<pattern>a</pattern><example/>", ["a"], ""),
    ("rule-in-rule", "<pattern>a</pattern><rule id='x'/>", ["a"], ""),
    ("element-in-pattern", "<pattern>a<b/></pattern>", ["a"], ""),
    ("test-value-no-name", "<pattern>a</pattern><examples><example><test_values><test_value>x"
     "</test_value></test_values></example></examples>", ["a"], ""),
    ("test-value-empty", "<pattern>a@ESTRING:u::@</pattern><examples><example>"
     "<test_message program='p'>a:</test_message><test_values><test_value name='u'></test_value>"
     "</test_values></example></examples>", ["a:", "ab:"], ""),
    ("test-value-type", "<pattern>a @NUMBER:n@</pattern><examples><example>"
     "<test_message program='p'>a 5</test_message><test_values><test_value name='n' type='int'>5"
     "</test_value></test_values></example></examples>", ["a 5"], ""),
    ("examples-empty", "<pattern>a</pattern><examples/><examples><example/></examples>", ["a"], ""),
    ("example-two-messages", "<pattern>a</pattern><pattern>b</pattern><examples><example>"
     "<test_message program='p'>a</test_message><test_message program='p'>b</test_message>"
     "</example></examples>", ["a", "b"], ""),
    ("example-no-program", "<pattern>a</pattern><examples><example><test_message>a</test_message>"
     "</example></examples>", ["a"], ""),
    ("action-two-messages", "<pattern>a</pattern><actions><action><message><value name='MESSAGE'>one"
     "</value></message><message><value name='y'>2</value></message></action></actions>", ["a"],
     "second <message>"),
    ("action-context-then-message", "<pattern>a</pattern><actions><action><create-context context-id='c'>"
     "<message><value name='MESSAGE'>one</value></message></create-context><message>"
     "<value name='MESSAGE'>two</value></message></action></actions>", ["a"], "second <message>"),
    ("action-empty", "<pattern>a</pattern><actions></actions>", ["a"], ""),
    ("action-bad-trigger", "<pattern>a</pattern><actions><action trigger='bogus'><message/></action>"
     "</actions>", ["a"], ""),
    ("action-bad-inherit", "<pattern>a</pattern><actions><action><message inherit-properties='maybe'/>"
     "</action></actions>", ["a"], ""),
    ("create-context-no-id", "<pattern>a</pattern><actions><action><create-context/></action></actions>",
     ["a"], ""),
    ("context-scope-bad", "<pattern>a</pattern></rule><rule id='q' context-scope='nowhere'>"
     "<pattern>q</pattern>", ["a"], ""),
    ("context-timeout-text", "<pattern>a</pattern></rule><rule id='q' context-id='x' context-timeout='5s'>"
     "<pattern>q</pattern>", ["a", "q"], ""),
    ("rule-duplicate-id", "<pattern>a</pattern></rule><rule id='r' class='e'><pattern>b</pattern>",
     ["a", "b"], ""),
    ("rule-no-class", "<pattern>a</pattern></rule><rule id='q'><pattern>q</pattern>", ["q"], ""),
    ("tags-quoted", "<pattern>a</pattern><tag>a,b</tag><tag>x y</tag><tag>q\"r</tag><tag>it's</tag>"
     "<tag></tag><tag>b\\\\s</tag><tag>t&#9;n&#10;r&#13;</tag><tag>&#34;&#92;</tag><tag>x&#34;y'z</tag>"
     "<tag>(p)=;:</tag><tag>\u00e9</tag>", ["a"], ""),
    ("rule-class-id-empty", "<pattern>a</pattern></rule><rule id='' class=''><pattern>q</pattern>",
     ["a", "q"], ""),
    ("pattern-blank-only", "<pattern>a</pattern><pattern>   </pattern>", ["a", "   "], ""),
    ("wrapper-attributes", "<patterns x='1'><pattern>a</pattern></patterns><values y='2'>"
     "<value name='v'>1</value></values><tags z='3'><tag>t</tag></tags>", ["a"], ""),
    ("inherit-mode-bad", "<pattern>a</pattern><actions><action><message inherit-mode='sometimes'/>"
     "</action></actions>", ["a"], ""),
    ("action-rate-odd", "<pattern>a</pattern><actions><action rate='x/y' trigger='match'><message>"
     "<value name='MESSAGE'>m</value></message></action></actions>", ["a"], ""),
    ("test-message-in-examples", "<pattern>a</pattern><examples><test_message program='p'>a</test_message>"
     "</examples>", ["a"], ""),
    ("test-values-in-examples", "<pattern>a</pattern><examples><test_values/></examples>", ["a"], ""),
    ("rule-multiline-attributes", "<pattern>a</pattern></rule><rule\n\tprovider='x'\n\tid='q'\n"
     "\tcontext-scope='host'\n\tclass='k'>\n<pattern>q</pattern>", ["q"], ""),
]

CONFLICTS = ("<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>{}</rules>"
             "</ruleset></patterndb>")
DOCS = [
    ("conflict-two-rules", CONFLICTS.format(
        "<rule id='r1'><pattern>a @NUMBER:n@</pattern><examples><example><test_message program='p'>a 5"
        "</test_message></example></examples></rule><rule id='r2'><pattern>a @STRING:s@</pattern>"
        "<pattern>a @ANYSTRING:t@</pattern><examples><example><test_message program='p'>a x</test_message>"
        "</example></examples></rule>"), ["a 5", "a x"], ""),
    ("conflict-and-mismatch", CONFLICTS.format(
        "<rule id='r1'><patterns><pattern>a @NUMBER:n@</pattern><pattern>a @ESTRING:m:x@</pattern></patterns>"
        "<examples><example><test_message program='p'>a 5x</test_message></example></examples></rule>"
        "<rule id='r2'><pattern>a @STRING:s@</pattern><pattern>a @ANYSTRING:t@</pattern><examples><example>"
        "<test_message program='p'>a 5</test_message></example></examples></rule>"), ["a 5", "a 5x"], ""),
    ("conflict-literal-over-parser", CONFLICTS.format(
        "<rule id='any'><pattern>user @ESTRING:u: @logged in</pattern><examples><example>"
        "<test_message program='p'>user bob logged in</test_message></example></examples></rule>"
        "<rule id='root'><pattern>user root logged in</pattern><examples><example>"
        "<test_message program='p'>user root logged in</test_message></example></examples></rule>"),
     ["user root logged in", "user bob logged in"], ""),
    ("rule-no-id", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule class='c'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("ruleset-no-name", "<patterndb version='4'><ruleset><pattern>p</pattern><rules><rule id='r'>"
     "<pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("ruleset-wrappers", "<patterndb version='4'><ruleset name='p' id='p'><patterns><pattern>p</pattern>"
     "<rules><rule id='r'><pattern>a</pattern></rule></rules><description>d</description>"
     "<urls><url>x</url><pattern>q</pattern></urls></patterns></ruleset></patterndb>", ["a"],
     "<rules> inside <patterns>"),
    ("ruleset-patterns-in-urls", "<patterndb version='4'><ruleset name='p' id='p'><urls><patterns>"
     "<pattern>p</pattern></patterns></urls><rules><rule id='r'><pattern>a</pattern></rule></rules>"
     "</ruleset></patterndb>", ["a"], "<patterns> inside <urls>"),
    ("ruleset-description-url-first", "<?xml version='1.0' encoding='UTF-8'?>\n<patterndb version='3' "
     "pub_date='2011-10-17'>\n<ruleset name='p' id='p'>\n<description>\n  multi\n  line\n</description>\n"
     "<url>www.example.com</url>\n<pattern>p</pattern>\n<rules><rule id='r' class='system'>"
     "<patterns><pattern>Accepted @ESTRING:m: @for @ESTRING:: @@ANYSTRING:rest@</pattern></patterns>"
     "<values><value name='pid'>$PID</value></values></rule></rules></ruleset></patterndb>",
     ["Accepted password for bob ssh2", "Accepted password"], ""),
    ("ruleset-program-comment", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p<!-- -->q"
     "</pattern><rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"],
     "cut in pieces"),
    ("ruleset-program-parser", "<?xml version=\"1.0\"?>\n<patterndb version=\"3\" pub_date=\"2011-09-12\">"
     "<ruleset name=\"p/x\" id=\"p\"><pattern>p/@ANYSTRING:proto@</pattern><rules><rule id=\"r\" "
     "provider=\"user\" class=\"system\"><patterns><pattern>login: @ESTRING:u: @ok</pattern></patterns>"
     "<examples><example><test_message program=\"p/imap\">login: bob ok</test_message><test_values>"
     "<test_value name=\"u\">bob</test_value><test_value name=\"proto\">imap</test_value></test_values>"
     "</example></examples><tags><tag>t</tag></tags><values><value name=\"res\">ok</value></values>"
     "</rule></rules></ruleset></patterndb>", ["login: bob ok", "other"], ""),
    ("ruleset-pattern-after-rules", "<patterndb version='4'><ruleset name='p' id='p'><rules><rule id='r'>"
     "<pattern>a</pattern></rule></rules><pattern>p</pattern><pattern>q</pattern></ruleset></patterndb>",
     ["a"], ""),
    ("rulesets-same-program", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset><ruleset name='p2' id='p2'>"
     "<pattern>p</pattern><rules><rule id='s'><pattern>b</pattern></rule></rules></ruleset></patterndb>",
     ["a", "b"], ""),
    ("rulesets-mismatching-programs", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern>"
     "<rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset><ruleset name='q' id='q'>"
     "<pattern>q</pattern><pattern>p</pattern><rules><rule id='s'><pattern>b</pattern></rule></rules>"
     "</ruleset></patterndb>", ["a", "b"], ""),
    ("rule-directly-in-ruleset", "<patterndb version='2' pub_date='2009-07-28'><ruleset name='p' id='1'>"
     "<pattern>p</pattern><rule provider='test' id='11' class='system'><patterns><pattern>a</pattern>"
     "</patterns></rule></ruleset></patterndb>", ["a"], ""),
    ("ruleset-comment-in-rules", "<patterndb version='4'><ruleset name='p' id='p'><patterns><pattern>p</pattern>"
     "<pattern>q</pattern></patterns><rules><!-- different parsers at the same location --><rule id='r'>"
     "<patterns><pattern>a @ESTRING:x: @</pattern></patterns></rule><rule id='s'><patterns>"
     "<pattern>a @ESTRING:y: @tail</pattern></patterns></rule></rules></ruleset></patterndb>",
     ["a b ", "a b tail"], ""),
    ("ruleset-stray-text", "<patterndb version='4'><ruleset name='p' id='p'>junk<pattern>p</pattern>"
     "</ruleset></patterndb>", ["a"], ""),
    ("ruleset-two-rules-blocks", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern>"
     "<rules/><rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset><ruleset/></patterndb>",
     ["a"], ""),
    ("ruleset-values", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><values/>"
     "<rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("patterndb-no-version", "<patterndb><ruleset name='p' id='p'><pattern>p</pattern><rules><rule id='r'>"
     "<pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], "version is unspecified"),
    ("version-3.0", "<patterndb version='3.0'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("version-blank", "<patterndb version=' 5'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("version-x", "<patterndb version='x'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("version-1", "<patterndb version='1'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("version-2", "<patterndb version='2'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("version-5", "<patterndb version='5'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
    ("xmlns-attribute", "<patterndb xmlns='http://example.com/x' version='4'><ruleset name='p' id='p'>"
     "<pattern>p</pattern><rules><rule id='r' xml:lang='en'><pattern>a</pattern></rule></rules>"
     "</ruleset></patterndb>", ["a"], ""),
    ("doctype-comments-pi", "<?xml version='1.0'?><!DOCTYPE patterndb><!-- c --><patterndb version='4'>"
     "<?pi x?><ruleset name='p' id='p'><pattern>p</pattern><rules><rule id='r'><pattern>a<?pi x?>b"
     "</pattern></rule></rules></ruleset></patterndb><!-- after -->", ["a", "b"], "cut in pieces"),
    ("comment-double-hyphen", "<!-- ---- a section ---- --><patterndb version='4'><ruleset name='p' id='p'>"
     "<pattern>p</pattern><rules><rule id='r'><pattern>a<!-- x -- y -->b</pattern><pattern>x&amp;y</pattern>"
     "</rule></rules></ruleset></patterndb>", ["a", "b", "ab", "x&y"], "Double hyphen within comment"),
    ("declaration-not-first", "\n\n<?xml version='1.0'?>\n<patterndb version='4'><ruleset name='p' id='p'>"
     "<pattern>p</pattern><rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>",
     ["a"], "XML declaration allowed only at the start"),
    ("declaration-version-2", "<?xml version='2.0'?><patterndb version='4'><ruleset name='p' id='p'>"
     "<pattern>p</pattern><rules><rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>",
     ["a"], "Unsupported version"),
    ("pi-named-xml-in-pattern", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a<?xml x?>b</pattern></rule></rules></ruleset></patterndb>", ["a", "b"],
     "XML declaration allowed only at the start"),
    ("control-characters", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a&#27;[@NUMBER:n@m</pattern><pattern>b\x01c\x1fd&amp;e</pattern><value name='v'>"
     "x&#x1b;y&lt;</value></rule></rules></ruleset></patterndb>", ["a\x1b[1m", "b\x01c\x1fd&e", "a[1m"],
     "invalid xmlChar value 27"),
    ("two-root-elements", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a</pattern></rule></rules></ruleset></patterndb>\n<?xml version='1.0'?>\n"
     "<patterndb version='4'><ruleset name='q' id='q'><pattern>q</pattern><rules><rule id='s'>"
     "<pattern>b</pattern></rule></rules></ruleset></patterndb>", ["a", "b"],
     "reads what follows as another document"),
    ("text-after-root", "<patterndb version='4'/>junk", ["a"], ""),
    ("cdata-end-in-text", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a]]>b</pattern><pattern>c&amp;d]]>e]]>f</pattern><pattern>\u00e9]]>g</pattern>"
     "<pattern>]]>h</pattern></rule></rules></ruleset></patterndb>", ["a]]>b", "c&d]]>e]]>f", "\u00e9]]>g", "]]>h"],
     "not allowed in content"),
    ("duplicate-attribute-value", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern>"
     "<rules><rule id='r'><pattern>a</pattern><value name='v' name='w'>x&amp;y</value></rule></rules>"
     "</ruleset></patterndb>", ["a"], "redefined"),
    ("unknown-top", "<patterndb version='4'><foo/></patterndb>", ["a"], ""),
    ("wrong-root", "<pdb version='4'/>", ["a"], ""),
    ("unknown-entity", "<patterndb version='4'><ruleset name='p' id='p'><pattern>p</pattern><rules>"
     "<rule id='r'><pattern>a&e;</pattern></rule></rules></ruleset></patterndb>", ["a"], ""),
]


def mutations(message):
    out = [message]
    if message:
        out += [message[:-1], message + " x", "x" + message, message.upper()]
    return out


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    variants = [(n, RULESET.format(b), m, w) for n, b, m, w in RULE]
    variants += [(n, d + "\n", m, w) for n, d, m, w in DOCS]
    for name, xml, messages, warning in variants:
        with open(os.path.join(outdir, name + ".xml"), "w") as f:
            f.write(xml)
        lines = []
        for m in messages:
            for v in mutations(m):
                for prog in ("p", "p/imap", "q"):
                    lines.append("<13>Dec  3 10:00:00 host %s[1]: %s" % (prog, v.replace("\n", " ")))
        with open(os.path.join(outdir, name + ".log"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print("%s\t%s" % (name, warning))


if __name__ == "__main__":
    main()
