#!/usr/bin/env python3
"""format-controls.py - find printk formats that carry control bytes.

Usage:
    scripts/format-controls.py TREE                   # a kernel source directory
    scripts/format-controls.py --rev REV GITDIR       # a commit of a kernel git repo
    options: --all-dirs (also tools/, scripts/, usr/), --families (list the
             families found and how), --quiet (totals only), --verbose
             (progress on stderr).  Standard library only; --rev needs git.
    About 12 minutes of one core for a whole 7.2 tree (two passes).

Counts the format strings of the printk-family calls in the .c and .h files
of a kernel tree that hold a control byte: a byte below 0x20 other than \\n
and \\t, or 0x7f, once the literal is decoded as C does.  Each is listed as

    file:line  function-called  [controls]  the literal as written

and the totals follow, by control byte (CR, ESC, BEL, BS, other; a format
with several kinds counts once under each) and by file.  A second count,
listed apart, is of the formats in which a % conversion follows the two
characters \\x (written "\\\\x%02x": a hex dump that prints \\xNN as text,
which a reader of an escaped log cannot tell from an escape).  A third,
informational, count is of formats that write a C1 byte (0x80-0x9f) as an
escape (\\x9b, \\233); those are not in the first total.

How it reads C.  A tokenizer: comments skipped, string and character
literals, identifiers, numbers, punctuation; preprocessor directives read
as logical lines (backslash-newline joined); the dead halves of "#if 0" and
"#if 1 ... #else" skipped.  The format argument of a call is the argument
at the family's format position(s); every string literal in it is decoded
(\\n \\t \\r \\a \\b \\f \\v \\e \\E \\\\ \\' \\" \\? \\ooo \\xhh... \\u \\U) and
the pieces joined, as adjacent literals are.  Identifiers between the
pieces: KERN_SOH, KERN_EMERG..KERN_DEBUG, KERN_DEFAULT and KERN_CONT are
log-level markers and add nothing (a hand-written "\\001" + level char at
the start of a format is stripped likewise); an object-like macro whose
body is string literals (and such macros), defined in the file, in a header
it includes with quotes, or in include/ or arch/*/include/, is expanded;
any other identifier (pr_fmt(fmt), DRV_NAME, a variable) adds nothing.  The
bodies of "#define pr_fmt(fmt)" and "#define dev_fmt(fmt)" are formats too
(every pr_*/dev_* call of that file carries them), as are the literal pieces
in the body of a printing macro (#define foo_err(fmt, ...) pr_err("foo: "
fmt ...)), reported at the #define.

The families.  Seeds: printk, _printk, printk_deferred, _printk_deferred,
vprintk, vprintk_emit, vprintk_default, vprintk_deferred, early_printk,
no_printk; dev_printk, _dev_printk, dev_printk_emit, dev_vprintk_emit,
_dev_emerg.._dev_info, netdev_printk, netdev_emerg..netdev_info (functions
that a macro builds where it is invoked; the search reads such generators
too, define_ibdev_printk_level(ibdev_err, KERN_ERR) and the like, but these
are seeded all the same);
the dynamic-debug entry points (pr_debug, dev_dbg, netdev_dbg, ibdev_dbg,
dynamic_*_dbg, __dynamic_*) and WARN_ONCE, WARN_TAINT_ONCE (they reach
printk through _dynamic_func_call / DO_ONCE_LITE_IF helpers).  Then, to a
fixed point, over the whole tree:
  * a function-like macro is a family if its body calls a family with one
    of its parameters in that family's format argument (KERN_ERR pr_fmt(fmt),
    "drv: " fmt, a forwarded __VA_ARGS__ / args..., or lvl and fmt both:
    printk(lvl fmt)); or hands a family's name to a helper macro that calls
    its parameter (DO_ONCE_LITE(printk, fmt, ...), dev_printk_index_wrap(
    _dev_err, KERN_ERR, dev, fmt, ...)); or pastes a family prefix (pr_ ##
    level, dev_##level, printk##once); or writes "printk x" with x a
    parameter that carries a parenthesized ("fmt", args) list, the old
    DPRINTK((...)) style, whose call sites are then read inside the parens;
    an object-like macro whose body is a family's name is an alias;
  * a function with a "const char *fmt" right before "..." or a va_list is
    a family if it passes fmt to a family's format argument (vprintk(fmt,
    args), dev_err_probe -> __dev_probe_failed), or sets .fmt = fmt in a
    struct va_format that it passes to a family ("%pV", &vaf), or formats
    fmt with vsnprintf & co. into a buffer of its own that it passes to a
    family (panic, acpi_os_printf, scmd_printk, xmon's printf).  A helper
    taking a struct va_format * that it hands to a family counts as a
    family for the .fmt rule (__drm_err -> __drm_dev_vprintk).  Three
    functions that format a name rather than a message and only mention it
    in a diagnostic are left out by hand: __request_module,
    amdgpu_ucode_request, create_mux_common.
Macros and functions defined in include/ and arch/*/include/, and
non-static functions anywhere, are visible tree-wide; macros and static
functions of a .c file or of a header outside include/ are visible only in
that file and in the files that include it with quotes (resolved relative
to the file, then to the nearest header of that path in the tree).  A local
definition of a name shadows the tree-wide one.  trace_printk & co.,
seq_*printf and the _dynamic_func_call helpers never become families.

This finds, in 7.2: pr_* (emerg..debug, devel, cont, *_once,
*_ratelimited), printk_once/_ratelimited/_deferred(_once), dev_* (emerg..
dbg, *_once, *_ratelimited, dev_err_probe, dev_warn_probe, dev_WARN*),
netdev_*, netif_*, net_*_ratelimited, the subsystem families in include/
(drm_* and DRM_*, ibdev_*, wiphy_*, pci_*, hid_*, ata_{port,link,dev}_*,
sdev_printk, shost_printk, scmd_printk, bt_dev_* and BT_*, snd_*,
v4l2_*, btrfs_*, ext4_msg & co., DM*, kunit_*, ...), WARN & co. (WARN,
WARN_ONCE, WARN_RATELIMIT, WARN_TAINT, dev_WARN, drm_WARN, VM_WARN, ...),
panic, NL_SET_ERR_MSG_FMT (its message reaches the log only when
truncated), the BPF verifier log (printed only in its kernel-log mode),
and each driver's private dprintk()-style macros and log functions.
--families lists them all, with the index of their format argument(s)
and one definition each was found from ("local": visible to some files
only).

What it cannot see:
  * formats built at run time: a format in a variable or a table, one
    composed with snprintf, or a control byte passed as an argument
    (printk("%c", 27), pr_info("%s", "\\033[0m"), a "%s" of a string macro);
  * formats whose wrapper it cannot follow: a format macro or wrapper
    defined in a file that this file does not include with quotes (for
    example reached only through a Makefile -I path it could not match),
    calls through function pointers (ops->log(...)), callee names built by
    other ## pastes, or wrappers that reach printk only through a path it
    does not model (a ring buffer, a tracepoint, a debugfs file);
  * what the preprocessor decides: all branches of #ifdef are read (only
    "#if 0" and "#if 1 ... #else" are skipped), so a macro counts as
    printing if any of its definitions prints, and a format is counted
    whether or not the configuration compiles it;
  * messages, only formats: a line assembled from pieces with pr_cont() or
    KERN_CONT is counted piece by piece, so a control byte split across
    two calls, or one that only a later piece makes visible, is judged per
    call; and a KERN_CONT string's own position in a line is not modelled;
  * userspace: tools/, scripts/ and usr/ (host programs and tools whose
    pr_* print to stderr) are left out unless --all-dirs.
"""

import argparse
import bisect
import collections
import os
import re
import subprocess
import sys
import time

# ----------------------------------------------------------------------------
# Reading the tree

SKIP_DIRS = ('tools/', 'scripts/', 'usr/')


class DirSource:
    def __init__(self, root):
        self.root = root
        paths = []
        for dp, dns, fns in os.walk(root):
            dns[:] = sorted(d for d in dns if d != '.git')
            rel = os.path.relpath(dp, root)
            for fn in fns:
                if fn.endswith(('.c', '.h')) and \
                        not os.path.islink(os.path.join(dp, fn)):
                    paths.append(fn if rel == '.' else rel + '/' + fn)
        self.paths = sorted(paths)

    def read_all(self, paths):
        for p in paths:
            with open(os.path.join(self.root, p), 'rb') as f:
                yield p, f.read().decode('latin-1')


class GitSource:
    def __init__(self, gitdir, rev):
        self.gitdir = gitdir
        self.rev = rev
        out = subprocess.run(['git', '-C', gitdir, 'ls-tree', '-r', '-z',
                              '--full-tree', rev],
                             check=True, stdout=subprocess.PIPE).stdout
        self.blob = {}
        for ent in out.split(b'\0'):
            if not ent:
                continue
            meta, path = ent.split(b'\t', 1)
            mode, typ, sha = meta.split()
            path = path.decode('utf-8', 'surrogateescape')
            if typ == b'blob' and path.endswith(('.c', '.h')) \
                    and mode != b'120000':
                self.blob[path] = sha.decode()
        self.paths = sorted(self.blob)

    def read_all(self, paths):
        proc = subprocess.Popen(['git', '-C', self.gitdir, 'cat-file',
                                 '--batch'], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE)
        try:
            for p in paths:
                proc.stdin.write(self.blob[p].encode() + b'\n')
                proc.stdin.flush()
                hdr = proc.stdout.readline().split()
                size = int(hdr[2])
                data = proc.stdout.read(size)
                proc.stdout.read(1)
                yield p, data.decode('latin-1')
        finally:
            proc.stdin.close()
            proc.wait()


# ----------------------------------------------------------------------------
# Tokenizer

TOKEN_RE = re.compile(r'''
  (?P<ws>[ \t\f\v\r]+)
| (?P<nl>\n)
| (?P<bc>/\*.*?(?:\*/|\Z))
| (?P<lc>//(?:[^\n\\]|\\.)*)
| (?P<str>(?:u8|[uUL])?"(?:[^"\\\n]|\\.)*")
| (?P<chr>(?:u8|[uUL])?'(?:[^'\\\n]|\\.)*')
| (?P<id>[A-Za-z_$][\w$]*)
| (?P<num>\.?[0-9](?:[eEpP][+-]|[\w.])*)
| (?P<bs>\\[ \t]*\n)
| (?P<p>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\#\#
      |[-+*/%&|^!=<>]=|[][(){}.,;:?~\#*/%&|^!=<>+-])
| (?P<o>.)
''', re.S | re.X)

# token: (kind, text, pos); kinds: id str chr num p o


def lex(text):
    """Return (tokens, directives) of a file.  directives: token lists
    starting with '#'.  Dead #if 0 / #if 1-#else regions are dropped."""
    toks = []
    dirs = []
    at_bol = True
    cur = None
    stack = []      # [kind, skipping]
    skipping = False

    def end_directive(d):
        nonlocal skipping
        if len(d) < 2 or d[1][0] != 'id':
            return
        name = d[1][1]
        rest = [t[1] for t in d[2:]]
        if name in ('if', 'ifdef', 'ifndef'):
            if skipping:
                stack.append(['inner', True])
            elif name == 'if' and rest == ['0']:
                stack.append(['if0', True])
            elif name == 'if' and rest == ['1']:
                stack.append(['if1', False])
            else:
                stack.append(['plain', False])
        elif name in ('else', 'elif', 'elifdef', 'elifndef'):
            if stack:
                top = stack[-1]
                if top[0] == 'if0':
                    top[0], top[1] = 'plain', False
                elif top[0] == 'if1':
                    top[0], top[1] = 'done', True
        elif name == 'endif':
            if stack:
                stack.pop()
        else:
            if not skipping:
                dirs.append(d)
        skipping = any(s[1] for s in stack)

    for m in TOKEN_RE.finditer(text):
        k = m.lastgroup
        if k == 'ws' or k == 'bc' or k == 'lc' or k == 'bs':
            continue
        if k == 'nl':
            if cur is not None:
                end_directive(cur)
                cur = None
            at_bol = True
            continue
        t = m.group()
        if cur is not None:
            cur.append((k, t, m.start()))
            continue
        if at_bol and t == '#':
            cur = [(k, t, m.start())]
            at_bol = False
            continue
        at_bol = False
        if not skipping:
            toks.append((k, t, m.start()))
    if cur is not None:
        end_directive(cur)
    return toks, dirs


OPEN = {'(': ')', '[': ']', '{': '}'}


def call_args(toks, i):
    """toks[i] is '('.  Return (args, index after ')')."""
    args = []
    cur = []
    depth = 0
    n = len(toks)
    j = i + 1
    while j < n:
        t = toks[j]
        s = t[1]
        if t[0] == 'p':
            if s in OPEN:
                depth += 1
            elif s in (')', ']', '}'):
                if depth == 0:
                    if s == ')':
                        if cur or args:
                            args.append(cur)
                        return args, j + 1
                    # unbalanced: give up
                    return None, j + 1
                depth -= 1
            elif s == ',' and depth == 0:
                args.append(cur)
                cur = []
                j += 1
                continue
            elif s == ';' and depth == 0:
                return None, j
        cur.append(t)
        j += 1
    return None, n


# ----------------------------------------------------------------------------
# C string literals

ESC_SIMPLE = {'n': 10, 't': 9, 'r': 13, 'a': 7, 'b': 8, 'f': 12, 'v': 11,
              'e': 27, 'E': 27, '\\': 92, "'": 39, '"': 34, '?': 63}
OCT = set('01234567')
HEX = set('0123456789abcdefABCDEF')


def decode_literal(tok):
    """Bytes of a string literal token (without the NUL).  Also returns the
    set of byte values that came from an escape sequence."""
    s = tok
    q = s.index('"')
    s = s[q + 1:-1]
    out = bytearray()
    escaped = set()
    i = 0
    n = len(s)
    while i < n:
        c = s[i]
        if c != '\\':
            out.append(ord(c) & 0xff)
            i += 1
            continue
        i += 1
        if i >= n:
            out.append(92)
            break
        c = s[i]
        if c == '\n':                   # line continuation in a literal
            i += 1
            continue
        if c in ESC_SIMPLE:
            v = ESC_SIMPLE[c]
            i += 1
        elif c in OCT:
            j = i
            while j < n and j < i + 3 and s[j] in OCT:
                j += 1
            v = int(s[i:j], 8) & 0xff
            i = j
        elif c == 'x':
            j = i + 1
            while j < n and s[j] in HEX:
                j += 1
            v = int(s[i + 1:j], 16) & 0xff if j > i + 1 else ord('x')
            i = j
        elif c in 'uU':
            w = 4 if c == 'u' else 8
            h = s[i + 1:i + 1 + w]
            i += 1 + w
            try:
                b = chr(int(h, 16)).encode('utf-8', 'surrogatepass')
            except ValueError:
                b = b'?'
            out += b
            continue
        else:                           # unknown escape: GCC keeps the char
            v = ord(c) & 0xff
            i += 1
        out.append(v)
        escaped.add(v)
    return bytes(out), escaped


LEVEL_MACROS = {'KERN_SOH', 'KERN_EMERG', 'KERN_ALERT', 'KERN_CRIT',
                'KERN_ERR', 'KERN_WARNING', 'KERN_NOTICE', 'KERN_INFO',
                'KERN_DEBUG', 'KERN_DEFAULT', 'KERN_CONT'}
LEVEL_CHARS = set(b'01234567cd')

CLASS_NAMES = {13: 'CR', 27: 'ESC', 7: 'BEL', 8: 'BS'}


def control_bytes(b):
    return sorted({c for c in b if (c < 0x20 and c not in (9, 10))
                   or c == 0x7f})


def strip_levels(b):
    while len(b) >= 2 and b[0] == 1 and b[1] in LEVEL_CHARS:
        b = b[2:]
    return b


def ctl_name(c):
    if c in CLASS_NAMES:
        return CLASS_NAMES[c]
    if c == 0x7f:
        return 'DEL'
    return '0x%02x' % c


# ----------------------------------------------------------------------------
# Definitions: macros and printf-like functions

VPRINTF_FUNCS = {'vsnprintf', 'vscnprintf', 'vsprintf', 'kvasprintf',
                 'kvasprintf_const', 'vasprintf', 'snprintf', 'scnprintf',
                 'sprintf', 'kasprintf', 'devm_kvasprintf', 'devm_kasprintf',
                 'vsnprintf_data'}
# Printf-like functions that format a name, not a message, and only mention
# it in a diagnostic (found by the vsnprintf rule; reviewed by hand).
NOT_MESSAGES = {'__request_module', 'amdgpu_ucode_request',
                'create_mux_common'}
NEVER = re.compile(r'(^|_)trace_\w*printk|^bpf_\w*printk|^seq_\w*printf$'
                   r'|^_?dynamic_func_call|^__dynamic_func_call|^TRACE_')


def split_params(ptoks):
    """Split a parameter list (tokens between parens) at top-level commas."""
    out = []
    cur = []
    depth = 0
    for t in ptoks:
        s = t[1]
        if s in OPEN:
            depth += 1
        elif s in (')', ']', '}'):
            depth -= 1
        elif s == ',' and depth == 0:
            out.append(cur)
            cur = []
            continue
        cur.append(t)
    if cur or out:
        out.append(cur)
    return out


class Macro:
    __slots__ = ('name', 'file', 'line', 'params', 'var', 'calls',
                 'alias', 'strbody', 'hof', 'tuplecalls', 'body')

    def __init__(self):
        self.body = None
        self.hof = ()
        self.tuplecalls = ()
        self.alias = None
        self.strbody = None
        self.calls = ()
        self.params = None
        self.var = None


class Func:
    __slots__ = ('name', 'file', 'line', 'static', 'fidx', 'P', 'calls',
                 'vaf', 'bufs', 'pnames', 'kind', 'prefix')

    def entry(self):
        return (self.fidx,) if self.kind == 'fmt' else ('V', self.fidx)


def summarize_calls(body, pmap, keep_all_ids=False):
    """Calls in a token list.  Each: (callee, paste, [arginfo]), arginfo =
    (param indices present in order, variadic present, bare identifier,
    identifier set or None).  paste: the callee is a prefix that ## pastes
    (pr_ ## level, printk ## once)."""
    calls = []
    n = len(body)
    for j in range(n - 1):
        t = body[j]
        if t[0] != 'id':
            continue
        nxt = body[j + 1][1]
        prev = body[j - 1][1] if j else ''
        paste = False
        if prev in ('.', '->', '##'):
            continue
        if nxt == '(':
            callee = t[1]
            args, _ = call_args(body, j + 1)
        elif nxt == '##':
            op = paste_open(body, j)
            if op is None:
                continue
            callee = t[1]
            paste = True
            args, _ = call_args(body, op)
        else:
            continue
        if args is None:
            continue
        infos = []
        interesting = paste or keep_all_ids or callee in pmap
        for a in args:
            pres = []
            var = False
            ids = set()
            for xi, x in enumerate(a):
                if x[0] == 'id':
                    ids.add(x[1])
                    pi = pmap.get(x[1])
                    if pi is not None and not (xi and a[xi - 1][1] == '#'):
                        if pi == 'var':
                            var = True
                        elif pi not in pres:
                            pres.append(pi)
            bare = None
            aa = [x for x in a if x[1] not in ('&', '##')]
            if len(aa) == 1 and aa[0][0] == 'id':
                bare = aa[0][1]
            if pres or var or bare:
                interesting = True
            infos.append((tuple(pres), var, bare,
                          frozenset(ids) if keep_all_ids else None))
        if interesting:
            calls.append((callee, paste, infos))
    return calls


def paste_open(toks, j):
    """toks[j] starts a paste chain a ## b ## c (: the index of its '('."""
    n = len(toks)
    k = j + 1
    while k + 1 < n and toks[k][1] == '##' and toks[k + 1][0] in ('id',
                                                                  'num'):
        k += 2
    if k > j + 1 and k < n and toks[k][1] == '(':
        return k
    return None


def paste_callee(prefix, fam):
    """pr_ ## level -> pr_err; printk ## once -> printk.  Only a prefix
    that starts a family (pr_err, dev_info, ...) counts."""
    if prefix in fam:
        return prefix
    for suf in ('err', 'info', 'warn', 'dbg'):
        if prefix + suf in fam:
            return prefix + suf
    return None


def parse_define(d):
    """A #define directive -> Macro or None."""
    if len(d) < 3 or d[1][1] != 'define' or d[2][0] != 'id':
        return None
    m = Macro()
    m.name = d[2][1]
    m.line = d[2][2]
    body = d[3:]
    if body and body[0][1] == '(' and body[0][2] == d[2][2] + len(d[2][1]):
        # function-like
        j = 1
        params = []
        var = None
        while j < len(body) and body[j][1] != ')':
            s = body[j][1]
            if s == '...':
                if params and j >= 2 and body[j - 1][0] == 'id':
                    var = len(params) - 1          # args...
                else:
                    params.append('__VA_ARGS__')
                    var = len(params) - 1
            elif body[j][0] == 'id':
                params.append(s)
            j += 1
        body = body[j + 1:]
        m.params = params
        m.var = var
        pmap = {}
        for i, p in enumerate(params):
            pmap[p] = 'var' if i == var else i
        if var is not None:
            pmap['__VA_ARGS__'] = 'var'
        m.calls = summarize_calls(body, pmap)
        texts = {t[1] for t in body}
        if '{' in texts and ('...' in texts or 'va_list' in texts):
            m.body = body           # may generate printf-like functions
        # printk x, with x a parameter holding ("fmt", args): DPRINTK((...))
        m.tuplecalls = [(body[j][1], pmap[body[j + 1][1]])
                        for j in range(len(body) - 1)
                        if body[j][0] == 'id' and body[j + 1][0] == 'id'
                        and isinstance(pmap.get(body[j + 1][1]), int)
                        and (j == 0 or body[j - 1][1] not in ('.', '->'))]
        # higher order: a parameter called as a function, _p_func(dev, fmt)
        m.hof = [(pmap[c], infos) for c, paste, infos in m.calls
                 if not paste and isinstance(pmap.get(c), int)]
    else:
        if len(body) == 1 and body[0][0] == 'id':
            m.alias = body[0][1]
        elif body and any(t[0] == 'str' for t in body) and \
                all(t[0] in ('str', 'id') for t in body):
            m.strbody = tuple((t[0], t[1]) for t in body)
    return m


def find_functions(toks, text_lines):
    """Printf-like function definitions at file level."""
    funcs = []
    n = len(toks)
    depth = 0
    stmt_start = 0
    i = 0
    while i < n:
        s = toks[i][1]
        if s == '{':
            if depth == 0 and i > 0 and toks[i - 1][1] != '=':
                f = _func_at(toks, stmt_start, i)
                if f is not None:
                    # body
                    j = i + 1
                    d = 1
                    while j < n and d:
                        if toks[j][1] == '{':
                            d += 1
                        elif toks[j][1] == '}':
                            d -= 1
                        j += 1
                    body = toks[i + 1:j - 1]
                    _summarize_func(f, body)
                    f.line = bisect.bisect_right(text_lines, toks[i][2]) + 1
                    funcs.append(f)
                    i = j
                    stmt_start = j
                    continue
            depth += 1
        elif s == '}':
            depth = max(0, depth - 1)
            if depth == 0:
                stmt_start = i + 1
        elif s == ';' and depth == 0:
            stmt_start = i + 1
        i += 1
    return funcs


def _func_at(toks, a, b):
    """Header toks[a:b] ending before '{': a printf-like definition?"""
    if b - a < 4 or b - a > 200:
        return None
    # find the last top-level (...) group whose contents hold ... or va_list
    j = b - 1
    while j > a:
        if toks[j][1] == ')':
            d = 0
            k = j
            while k > a:
                if toks[k][1] == ')':
                    d += 1
                elif toks[k][1] == '(':
                    d -= 1
                    if d == 0:
                        break
                k -= 1
            if toks[k][1] != '(' or k == a or toks[k - 1][0] != 'id':
                return None
            inner = toks[k + 1:j]
            names = {t[1] for t in inner}
            if '...' in names or 'va_list' in names or 'va_format' in names:
                f = Func()
                f.name = toks[k - 1][1]
                f.prefix = None
                if k >= 3 and toks[k - 2][1] == '##' and \
                        toks[k - 3][0] == 'id':
                    f.prefix = toks[k - 3][1]       # __iwl_ ## fn (...)
                if f.name.startswith('__attribute') or f.name == '__printf':
                    return None
                f.static = any(t[1] == 'static' for t in toks[a:k - 1])
                params = split_params(inner)
                f.kind = 'fmt'
                fidx = None
                if '...' not in names and 'va_list' not in names:
                    # void helper(..., struct va_format *vaf)
                    for pi, p in enumerate(params):
                        ps = [t[1] for t in p]
                        if 'va_format' in ps and '*' in ps and \
                                p[-1][0] == 'id':
                            fidx = pi
                    if fidx is None:
                        return None
                    f.kind = 'vaf'
                for pi, p in enumerate(params if f.kind == 'fmt' else ()):
                    ps = [t[1] for t in p]
                    if ps == ['...'] or 'va_list' in ps:
                        if pi > 0:
                            q = [t[1] for t in params[pi - 1]]
                            if 'char' in q and '*' in q and \
                                    params[pi - 1][-1][0] == 'id':
                                fidx = pi - 1
                        break
                if fidx is None:
                    return None
                f.fidx = fidx
                f.P = params[fidx][-1][1]
                f.pnames = {[t[1] for t in p if t[0] == 'id'][-1]
                            for p in params
                            if any(t[0] == 'id' for t in p)}
                return f
            j = k - 1
            continue
        if toks[j][0] == 'id' or toks[j][1] in ('*',):
            j -= 1
            continue
        return None
    return None


def _summarize_func(f, body):
    P = f.P
    pmap = {P: 0}
    f.calls = summarize_calls(body, pmap, keep_all_ids=True)
    # struct va_format: vaf.fmt = fmt, or vaf = { .fmt = fmt, ... }
    vaf = set()
    for j in range(1, len(body) - 2):
        if body[j][1] == 'fmt' and body[j + 1][1] == '=' and \
                body[j + 2][1] == P and body[j - 1][1] in ('.', '->'):
            if j >= 2 and body[j - 2][0] == 'id':
                vaf.add(body[j - 2][1])
            else:
                k = j - 1
                while k > 0 and body[k][1] != '{':
                    k -= 1
                if k >= 2 and body[k - 1][1] == '=' and \
                        body[k - 2][0] == 'id':
                    vaf.add(body[k - 2][1])
    f.vaf = frozenset(vaf)
    bufs = set()
    for callee, paste, infos in f.calls:
        if callee in VPRINTF_FUNCS and any(0 in inf[0] for inf in infos):
            if callee.startswith(('kvasprintf', 'kasprintf', 'devm_')):
                pass
            elif infos and infos[0][3]:
                bufs |= infos[0][3]
    # x = kvasprintf(..., fmt, ...)
    for j in range(2, len(body) - 1):
        if body[j][1] in ('kvasprintf', 'kvasprintf_const', 'kasprintf',
                          'devm_kvasprintf', 'devm_kasprintf') \
                and body[j - 1][1] == '=' and body[j - 2][0] == 'id':
            bufs.add(body[j - 2][1])
    # the buffer must be the function's own: sysfs_emit(buf, fmt, ...)
    # formats into its caller's page and only WARNs about the pointer
    bufs -= {'sizeof', 'size', 'len', 'ARRAY_SIZE', 'PAGE_SIZE', P}
    bufs -= f.pnames
    f.bufs = frozenset(bufs)


# ----------------------------------------------------------------------------
# Families


SEEDS = {
    'printk': (0,), '_printk': (0,), 'printk_deferred': (0,),
    '_printk_deferred': (0,), 'vprintk': (0,), 'vprintk_emit': (3,),
    'vprintk_default': (0,), 'vprintk_deferred': (0,),
    'early_printk': (0,), 'no_printk': (0,),
    'dev_printk': (2,), '_dev_printk': (2,), 'dev_printk_emit': (2,),
    'dev_vprintk_emit': (2,),
    'netdev_printk': (2,),
    'pr_debug': (0,), 'dynamic_pr_debug': (0,), '__dynamic_pr_debug': (1,),
    'dev_dbg': (1,), 'dynamic_dev_dbg': (1,), '__dynamic_dev_dbg': (2,),
    'netdev_dbg': (1,), 'dynamic_netdev_dbg': (1,),
    '__dynamic_netdev_dbg': (2,),
    'ibdev_dbg': (1,), 'dynamic_ibdev_dbg': (1,), '__dynamic_ibdev_dbg': (2,),
    'WARN_ONCE': (1,), 'WARN_TAINT_ONCE': (2,),
}
for _l in ('emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info'):
    SEEDS['_dev_' + _l] = (1,)
    SEEDS['netdev_' + _l] = (1,)


def is_global_path(p):
    return p.startswith('include/') or (p.startswith('arch/') and
                                        '/include/' in p)


class FamilyFinder:
    def __init__(self):
        self.gmacros = collections.defaultdict(list)   # global macros
        self.lmacros = {}        # file -> name -> [Macro]
        self.gfuncs = []         # global functions
        self.lfuncs = {}         # file -> [Func]
        self.includes = {}       # file -> [resolved local includes]
        self.gstr = {}           # global string macros: name -> body
        self.lstr = {}           # file -> name -> body
        self.why = {}            # family name -> description (global)
        self.hof = collections.defaultdict(list)

    # -- collect ---------------------------------------------------------
    def add_file(self, path, text, resolver):
        toks, dirs = lex(text)
        glob = is_global_path(path)
        nls = None
        incs = []
        lm = collections.defaultdict(list)
        ls = {}
        for d in dirs:
            if len(d) < 2:
                continue
            dn = d[1][1]
            if dn == 'include' and len(d) >= 3:
                if d[2][0] == 'str':
                    r = resolver(path, d[2][1][1:-1], True)
                elif d[2][1] == '<':
                    inc = ''.join(t[1] for t in d[3:]).rstrip('>')
                    r = resolver(path, inc, False)
                else:
                    r = None
                if r and not is_global_path(r):
                    incs.append(r)
            elif dn == 'define':
                m = parse_define(d)
                if m is None:
                    continue
                if nls is None:
                    nls = line_starts(text)
                m.file = path
                m.line = bisect.bisect_right(nls, m.line) + 1
                if m.hof:
                    for ip, pinfos in m.hof:
                        self.hof[m.name].append((ip, pinfos, m.var))
                if m.strbody is not None:
                    (self.gstr if glob else ls).setdefault(m.name, m.strbody)
                if m.params is None and m.alias is None:
                    if not glob:
                        lm[m.name].append(m)   # shadows
                    continue
                if glob:
                    self.gmacros[m.name].append(m)
                else:
                    lm[m.name].append(m)
        if nls is None:
            nls = line_starts(text)
        funcs = find_functions(toks, nls)
        funcs += self.generated_functions(lm if not glob else {}, toks, nls)
        lf = []
        for f in funcs:
            f.file = path
            if glob or not f.static:
                self.gfuncs.append(f)
            else:
                lf.append(f)
        if lm:
            self.lmacros[path] = dict(lm)
        if lf:
            self.lfuncs[path] = lf
        if incs:
            self.includes[path] = incs
        if ls:
            self.lstr[path] = ls
        return toks, dirs

    @staticmethod
    def generated_functions(lm, toks, nls):
        """Functions that a macro of this file defines where it is invoked:
        define_dev_printk_level(_dev_err, KERN_ERR); builds _dev_err()."""
        gens = {}
        for name, ms in lm.items():
            for m in ms:
                if m.body is None:
                    continue
                for f in find_functions(m.body, nls):
                    if f.name in m.params:
                        gens[name] = (m.params.index(f.name), f)
                m.body = None
        out = []
        if not gens:
            return out
        for j in range(len(toks) - 1):
            t = toks[j]
            if t[0] != 'id' or t[1] not in gens or toks[j + 1][1] != '(':
                continue
            ip, f = gens[t[1]]
            args, _ = call_args(toks, j + 1)
            if not args or ip >= len(args) or len(args[ip]) != 1 or \
                    args[ip][0][0] != 'id':
                continue
            g = Func()
            for k in Func.__slots__:
                if hasattr(f, k):
                    setattr(g, k, getattr(f, k))
            g.name = (f.prefix or '') + args[ip][0][1]
            g.line = bisect.bisect_right(nls, t[2]) + 1
            out.append(g)
        return out

    # -- evaluate --------------------------------------------------------
    @staticmethod
    def _idx_from(callee_idx, infos, offset, params_var):
        """Map a family's format indices onto a caller's parameters."""
        res = []
        for k in callee_idx:
            k2 = k + offset
            if k2 < len(infos):
                pres, var, _, _ = infos[k2]
                for p in pres:
                    if p not in res:
                        res.append(p)
                if var and params_var is not None and params_var not in res:
                    res.append(params_var)
            else:
                # forwarded variadic: the last argument holds it
                if infos and infos[-1][1] and params_var is not None:
                    v = params_var + (k2 - (len(infos) - 1))
                    if v not in res:
                        res.append(v)
        return res

    def call_map(self, callee, paste, infos, fam, var, selfname):
        """The caller's parameter indices that reach a family's format
        through this call, and the family reached."""
        res = []
        via = None
        if paste:
            callee = paste_callee(callee, fam)
            if callee is None:
                return res, via
        if callee != selfname and callee in fam:
            for idx in fam[callee]:
                if isinstance(idx[0], str):
                    continue
                for x in self._idx_from(idx, infos, 0, var):
                    if x not in res:
                        res.append(x)
                        via = callee
        if not paste:
            for ip, pinfos, mvar in self.hof.get(callee, ()):
                if ip >= len(infos):
                    continue
                f = infos[ip][2]
                if not f or f == selfname or f not in fam:
                    continue
                for idx in fam[f]:
                    if isinstance(idx[0], str):
                        continue
                    midx = self._idx_from(idx, pinfos, 0, mvar)
                    if not midx:
                        continue
                    for x in self._idx_from(tuple(midx), infos, 0, var):
                        if x not in res:
                            res.append(x)
                            via = '%s(%s)' % (callee, f)
        return res, via

    def eval_macro(self, m, fam):
        """Format entries of a macro: a tuple of parameter indices, or
        ('T', p, k...) when parameter p is a parenthesized ("fmt", args)
        list whose element(s) k are the format.  Returns (entries, via)."""
        if m.alias is not None:
            if m.alias in fam and m.alias != m.name:
                return list(fam[m.alias]), m.alias
            return [], None
        res = []
        ent = []
        via = None
        for callee, paste, infos in m.calls:
            r, v = self.call_map(callee, paste, infos, fam, m.var, m.name)
            for x in r:
                if x not in res:
                    res.append(x)
                    via = v
            if not paste and callee != m.name:
                for idx in fam.get(callee, ()):
                    if idx[0] == 'T' and idx[1] < len(infos):
                        for x in infos[idx[1]][0]:
                            e = ('T', x) + idx[2:]
                            if e not in ent:
                                ent.append(e)
                                via = callee
        for callee, p in m.tuplecalls:
            if callee != m.name:
                for idx in fam.get(callee, ()):
                    if not isinstance(idx[0], str):
                        e = ('T', p) + idx
                        if e not in ent:
                            ent.append(e)
                            via = callee
        if res:
            ent.insert(0, tuple(sorted(res)))
        return ent, via

    def eval_func(self, f, fam):
        if f.kind == 'vaf':
            # a helper taking a struct va_format * that it hands to a family
            for callee, paste, infos in f.calls:
                if callee in fam and callee != f.name:
                    for inf in infos:
                        if inf[3] and f.P in inf[3]:
                            return 'va_format sink, %s to %s' % (f.P, callee)
            return None
        calls_family = None
        for callee, paste, infos in f.calls:
            r, v = self.call_map(callee, paste, infos, fam, None, f.name)
            if 0 in r:
                return 'passes %s to %s' % (f.P, v)
            if callee in fam and callee != f.name:
                calls_family = callee
        if calls_family is None:
            return None
        if f.vaf:
            # the va_format must reach a family: printk("%pV", &vaf)
            for callee, paste, infos in f.calls:
                if callee in fam and callee != f.name:
                    for inf in infos:
                        if inf[3] and inf[3] & f.vaf:
                            return 'va_format %s.fmt = %s, to %s' % (
                                ','.join(sorted(inf[3] & f.vaf)), f.P,
                                callee)
        if f.bufs:
            for callee, paste, infos in f.calls:
                if callee in fam and callee != f.name:
                    for inf in infos:
                        if inf[3] and inf[3] & f.bufs:
                            return 'vsnprintf(%s) to %s' % (
                                ','.join(sorted(inf[3] & f.bufs)), callee)
        return None

    def solve_global(self):
        fam = {k: [v] for k, v in SEEDS.items()}
        why = {k: 'seed' for k in SEEDS}
        funcs_by_file = collections.defaultdict(list)
        for f in self.gfuncs:
            funcs_by_file[f.file].append(f)
        changed = True
        rounds = 0
        while changed:
            changed = False
            rounds += 1
            for name, ms in self.gmacros.items():
                if NEVER.search(name):
                    continue
                for m in ms:
                    ents, via = self.eval_macro(m, fam)
                    for idx in ents:
                        if idx not in fam.get(name, []):
                            fam.setdefault(name, []).append(idx)
                            why.setdefault(name, '%s:%d macro via %s' % (
                                m.file, m.line, via))
                            changed = True
            for path, fs in funcs_by_file.items():
                lfam = self.local_families(path, fam) \
                    if (path in self.lmacros or path in self.lfuncs
                        or path in self.includes) else fam
                for f in fs:
                    if NEVER.search(f.name) or f.name in NOT_MESSAGES:
                        continue
                    if f.entry() in fam.get(f.name, []):
                        continue
                    w = self.eval_func(f, lfam)
                    if w:
                        fam.setdefault(f.name, []).append(f.entry())
                        why.setdefault(f.name, '%s:%d function, %s' % (
                            f.file, f.line, w))
                        changed = True
        self.gfam = fam
        self.why = why
        self.rounds = rounds
        return fam

    def closure(self, path):
        seen = []
        todo = [path]
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.append(p)
            todo.extend(self.includes.get(p, ()))
        return seen

    def local_families(self, path, gfam, why=None):
        files = self.closure(path)
        lm = collections.defaultdict(list)
        lf = []
        for p in files:
            for name, ms in self.lmacros.get(p, {}).items():
                lm[name].extend(ms)
            lf.extend(self.lfuncs.get(p, ()))
        if not lm and not lf:
            return gfam
        fam = dict(gfam)
        for name in lm:
            fam.pop(name, None)
        changed = True
        while changed:
            changed = False
            for name, ms in lm.items():
                if NEVER.search(name):
                    continue
                for m in ms:
                    if m.params is None and m.alias is None:
                        continue
                    ents, via = self.eval_macro(m, fam)
                    for idx in ents:
                        if idx not in fam.get(name, []):
                            fam[name] = fam.get(name, []) + [idx]
                            if why is not None:
                                why.setdefault(name, 'e.g. %s:%d macro via %s'
                                               % (m.file, m.line, via))
                            changed = True
            for f in lf:
                if NEVER.search(f.name) or f.name in NOT_MESSAGES or \
                        f.entry() in fam.get(f.name, []):
                    continue
                w = self.eval_func(f, fam)
                if w:
                    fam[f.name] = fam.get(f.name, []) + [f.entry()]
                    if why is not None:
                        why.setdefault(f.name, 'e.g. %s:%d static function, '
                                       '%s' % (f.file, f.line, w))
                    changed = True
        return fam

    def string_macros(self, path):
        files = self.closure(path)
        if not any(p in self.lstr for p in files):
            return self.gstr
        d = dict(self.gstr)
        for p in reversed(files):
            d.update(self.lstr.get(p, {}))
        return d


def line_starts(text):
    return [m.end() for m in re.finditer('\n', text)]


class Resolver:
    def __init__(self, paths):
        self.paths = set(paths)
        self.by_base = collections.defaultdict(list)
        for p in paths:
            if p.endswith('.h'):
                self.by_base[p.rsplit('/', 1)[-1]].append(p)
        self.cache = {}

    def __call__(self, frm, inc, quoted):
        key = (os.path.dirname(frm), inc, quoted)
        if key in self.cache:
            return self.cache[key]
        r = self._resolve(frm, inc, quoted)
        self.cache[key] = r
        return r

    def _resolve(self, frm, inc, quoted):
        inc = inc.strip()
        if quoted:
            c = os.path.normpath(os.path.join(os.path.dirname(frm), inc))
            if c in self.paths:
                return c
        for base in ('include/', 'include/uapi/'):
            c = os.path.normpath(base + inc)
            if c in self.paths:
                return c
        if frm.startswith('arch/'):
            arch = frm.split('/')[1]
            for base in ('arch/%s/include/' % arch,
                         'arch/%s/include/uapi/' % arch,
                         'arch/%s/include/generated/' % arch):
                c = os.path.normpath(base + inc)
                if c in self.paths:
                    return c
        if not quoted and (inc.startswith(('linux/', 'asm/', 'uapi/'))):
            return None
        # nearest header with this path suffix
        suf = os.path.normpath(inc)
        while suf.startswith('../'):
            suf = suf[3:]
        base = suf.rsplit('/', 1)[-1]
        best = None
        bestn = 0
        fparts = frm.split('/')
        for p in self.by_base.get(base, ()):
            if p != suf and not p.endswith('/' + suf):
                continue
            parts = p.split('/')
            n = 0
            for a, b in zip(parts, fparts):
                if a != b:
                    break
                n += 1
            if n > bestn:
                best, bestn = p, n
        if bestn >= 1:
            return best
        return None


# ----------------------------------------------------------------------------
# Pass 2: the call sites


FMT_DEFINES = ('pr_fmt', 'dev_fmt')


def format_of(args, idx, smac):
    """(decoded bytes, escaped-byte set, written text, via-macros) of the
    format at indices idx of args, or None when it holds no literal."""
    pieces = []
    escaped = set()
    toks = []
    via = []
    has_lit = False
    for k in idx:
        if k >= len(args):
            continue
        for t in args[k]:
            toks.append(t[1])
            if t[0] == 'str':
                b, e = decode_literal(t[1])
                pieces.append(b)
                escaped |= e
                has_lit = True
            elif t[0] == 'id' and t[1] not in LEVEL_MACROS:
                b = expand_string_macro(t[1], smac, 0, escaped)
                if b:
                    pieces.append(b)
                    via.append(t[1])
    if not has_lit:
        return None
    return b''.join(pieces), escaped, written(toks), via


def expand_string_macro(name, smac, depth, escaped):
    body = smac.get(name)
    if body is None or depth > 8:
        return b''
    out = []
    for k, s in body:
        if k == 'str':
            b, e = decode_literal(s)
            out.append(b)
            escaped |= e
        elif s not in LEVEL_MACROS:
            out.append(expand_string_macro(s, smac, depth + 1, escaped))
    return b''.join(out)


def written(toks):
    return ' '.join(toks)


class Hit:
    __slots__ = ('path', 'line', 'func', 'data', 'escaped', 'text', 'via')


def scan_calls(toks, fam, smac, path, nls, hits, stats, start=0,
               in_define=None, hof=None):
    n = len(toks)
    for j in range(start, n - 1):
        t = toks[j]
        if t[0] != 'id':
            continue
        prev = toks[j - 1][1] if j > start else ''
        nxt = toks[j + 1][1]
        if prev in ('.', '->'):
            continue
        name = t[1]
        if prev == '##':
            continue
        if nxt == '(':
            op = j + 1
        elif nxt == '##':
            op = paste_open(toks, j)
            if op is None:
                continue
            name = paste_callee(name, fam)
        else:
            continue
        if name is None:
            continue
        idxs = fam.get(name)
        if not idxs and hof and name in hof:
            args, _ = call_args(toks, op)
            idxs = []
            label = name
            for ip, pinfos, mvar in hof[name]:
                if args and ip < len(args):
                    aa = [x for x in args[ip] if x[1] != '&']
                    if len(aa) == 1 and aa[0][1] in fam:
                        for idx in fam[aa[0][1]]:
                            if isinstance(idx[0], str):
                                continue
                            m = FamilyFinder._idx_from(idx, pinfos, 0, mvar)
                            if m:
                                idxs.append(tuple(m))
                                label = '%s(%s)' % (name, aa[0][1])
            if not idxs:
                continue
            name = label
        elif not idxs:
            continue
        else:
            args, _ = call_args(toks, op)
        if not args:
            continue
        res = None
        for idx in idxs:
            if idx[0] == 'V':
                continue
            if idx[0] == 'T':
                # DPRINTK(("fmt", args)): the format is inside the parens
                if idx[1] >= len(args):
                    continue
                a = args[idx[1]]
                if not a or a[0][1] != '(' or a[-1][1] != ')':
                    continue
                inner, _ = call_args(a, 0)
                if not inner:
                    continue
                res = format_of(inner, idx[2:], smac)
            else:
                res = format_of(args, idx, smac)
            if res is not None:
                break
        if res is None:
            if in_define is None:
                stats['nonliteral'] += 1
            continue
        stats['formats'] += 1
        data, escaped, text, via = res
        h = Hit()
        h.path = path
        h.line = bisect.bisect_right(nls, t[2]) + 1
        h.func = name if in_define is None else '%s (in #define %s)' % (
            name, in_define)
        h.data = strip_levels(data)
        h.escaped = escaped
        h.text = text
        h.via = via
        hits.append(h)


def scan_file(path, toks, dirs, fam, smac, nls, hits, stats, hof):
    scan_calls(toks, fam, smac, path, nls, hits, stats, hof=hof)
    for d in dirs:
        if len(d) < 4 or d[1][1] != 'define' or d[2][0] != 'id':
            continue
        body = d[3:]
        start = 0
        fn = body[0][1] == '(' and body[0][2] == d[2][2] + len(d[2][1])
        if fn:
            while start < len(body) and body[start][1] != ')':
                start += 1
            start += 1
        if fn and d[2][1] in FMT_DEFINES:
            lit = [t for t in body[start:] if t[0] == 'str']
            if lit:
                res = format_of([body[start:]], (0,), smac)
                if res:
                    h = Hit()
                    h.path = path
                    h.line = bisect.bisect_right(nls, d[2][2]) + 1
                    h.func = '#define ' + d[2][1]
                    h.data, h.escaped, h.text, h.via = res
                    h.data = strip_levels(h.data)
                    stats['formats'] += 1
                    hits.append(h)
            continue
        scan_calls(body, fam, smac, path, nls, hits, stats, start,
                   in_define=d[2][1], hof=hof)


# ----------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(
        description='printk-family formats holding control bytes')
    ap.add_argument('tree', help='kernel source tree (or git dir with --rev)')
    ap.add_argument('--rev', help='read this commit of the git repo TREE')
    ap.add_argument('--all-dirs', action='store_true',
                    help='also scan tools/, scripts/, usr/')
    ap.add_argument('--families', action='store_true',
                    help='list the families found and where from')
    ap.add_argument('--quiet', action='store_true', help='totals only')
    ap.add_argument('--verbose', action='store_true',
                    help='progress on stderr')
    a = ap.parse_args()

    src = GitSource(a.tree, a.rev) if a.rev else DirSource(a.tree)
    allpaths = src.paths
    if a.all_dirs:
        paths = allpaths
    else:
        paths = [p for p in allpaths if not p.startswith(SKIP_DIRS)]
    res = Resolver(paths)
    ff = FamilyFinder()

    t0 = time.time()

    def progress(msg):
        if a.verbose:
            sys.stderr.write('[%6.1fs] %s\n' % (time.time() - t0, msg))

    # pass 1: definitions
    progress('pass 1 over %d files' % len(paths))
    for path, text in src.read_all(paths):
        ff.add_file(path, text, res)
    progress('solving the families')
    gfam = ff.solve_global()
    progress('%d tree-wide families after %d rounds; pass 2' % (
        len(gfam), ff.rounds))

    # pass 2: call sites
    hits = []
    stats = collections.Counter()
    why = dict(ff.why)
    used = collections.Counter()
    for path, text in src.read_all(paths):
        toks, dirs = lex(text)
        fam = ff.local_families(path, gfam, why)
        smac = ff.string_macros(path)
        nls = line_starts(text)
        before = len(hits)
        scan_file(path, toks, dirs, fam, smac, nls, hits, stats, ff.hof)
        for h in hits[before:]:
            used[h.func.split(' ')[0]] += 1
        # keep only the interesting hits
        keep = []
        for h in hits[before:]:
            if control_bytes(h.data) or b'\\x%' in h.data or \
                    any(0x80 <= c <= 0x9f for c in h.escaped
                        if c in h.data):
                keep.append(h)
        hits[before:] = keep

    progress('done')
    ctl = [h for h in hits if control_bytes(h.data)]
    hexd = [h for h in hits if b'\\x%' in h.data]
    c1 = [h for h in hits if any(0x80 <= c <= 0x9f and c in h.data
                                 for c in h.escaped)]
    out = sys.stdout

    def show(h):
        cs = control_bytes(h.data)
        tag = ','.join(ctl_name(c) for c in cs)
        via = (' [via %s]' % ','.join(h.via)) if h.via else ''
        out.write('%s:%d\t%s\t[%s]%s\t%s\n' % (h.path, h.line, h.func, tag,
                                             via, h.text))

    if not a.quiet:
        out.write('# printk-family formats holding a control byte '
                  '(not \\n, \\t)\n')
        for h in ctl:
            show(h)
        out.write('\n# formats with a % conversion right after \\\\x\n')
        for h in hexd:
            out.write('%s:%d\t%s\t%s\n' % (h.path, h.line, h.func, h.text))
        out.write('\n# formats writing a C1 byte (0x80-0x9f) as an escape'
                  ' (informational)\n')
        for h in c1:
            out.write('%s:%d\t%s\t%s\n' % (h.path, h.line, h.func, h.text))
        out.write('\n')

    by = collections.Counter()
    for h in ctl:
        kinds = set()
        for c in control_bytes(h.data):
            kinds.add(CLASS_NAMES.get(c, 'other'))
        for k in kinds:
            by[k] += 1
    files = {h.path for h in ctl}
    out.write('# files scanned: %d (.c and .h%s)\n' % (
        len(paths), '' if a.all_dirs else
        '; tools/, scripts/, usr/ left out'))
    out.write('# printk families: %d names (%d tree-wide)\n' % (
        len(why), len(gfam)))
    out.write('# printk-family calls with a literal format: %d '
              '(and %d whose format holds no literal)\n' % (
                  stats['formats'], stats['nonliteral']))
    out.write('# control-byte formats: %d in %d files\n' % (
        len(ctl), len(files)))
    out.write('#   by byte (a format may count under several): %s\n' % (
        ', '.join('%s %d' % (k, by[k]) for k in
                  ('CR', 'ESC', 'BEL', 'BS', 'other'))))
    oth = collections.Counter()
    for h in ctl:
        for c in control_bytes(h.data):
            if c not in CLASS_NAMES:
                oth[ctl_name(c)] += 1
    if oth:
        out.write('#   other: %s\n' % ', '.join(
            '%s %d' % kv for kv in sorted(oth.items())))
    out.write('# \\\\x%% formats: %d in %d files\n' % (
        len(hexd), len({h.path for h in hexd})))
    out.write('# C1-escape formats (informational): %d\n' % len(c1))
    if a.families:
        out.write('\n# families (name: format argument index(es); found '
                  'from; call sites with a literal format)\n')
        for name in sorted(why):
            idx = gfam.get(name)
            out.write('%s\t%s\t%s\t%d\n' % (
                name, ';'.join(','.join(map(str, i)) for i in idx)
                if idx else 'local', why[name], used[name]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
