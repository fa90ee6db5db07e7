// SPDX-License-Identifier: GPL-2.0
/// The format strings of printk-family calls that hold a control byte
/// other than \n and \t (a byte below 0x20, or 0x7f), and apart those
/// that write "\x" before a % conversion ("\\x%02x"): the count the
/// series' cover letter gives.  A printk-family call is one of printk(),
/// panic(), WARN() and acpi_os_printf(), or of a function or macro whose
/// name ends in printk or in a log level (_err, _info, _dbg, ...,
/// DRM_ERROR and the like), but prom_init's prom_*(), which write to
/// Open Firmware.  Its format is the first argument that holds a string
/// literal, whose literals are joined and decoded as C does.  Not seen:
/// formats built at run time, or pieced from macros (pr_fmt(), DRV_NAME).
/// Run by "make count-format-controls" (which tells spatch 1.1.1 that
/// scoped_guard() is a loop), or in a kernel tree by
/// make coccicheck MODE=report COCCI=.../printk-format-controls.cocci
//
// Confidence: Moderate
// Options: --no-includes --include-headers

virtual report

@initialize:python@
@@
import coccinelle, re
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r'\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)')
SIMPLE = {'n': 10, 't': 9, 'r': 13, 'a': 7, 'b': 8, 'f': 12, 'v': 11,
          'e': 27, 'E': 27}
NAMES = {13: 'CR', 8: 'BS', 27: 'ESC', 7: 'BEL'}
seen = set()
# Shared with finalize (merge.) when spatch runs several jobs.
formats = coccinelle.formats = []
hex_dumps = coccinelle.hex_dumps = []

def byte(m):
    e = m.group(1)
    if e[0] == 'x' and len(e) > 1:
        return chr(int(e[1:], 16) & 0xff)
    if e[0] in '01234567':
        return chr(int(e, 8) & 0xff)
    return chr(SIMPLE.get(e, ord(e)))

@r depends on report@
identifier f =~ "^((?!prom_)[a-z0-9_]*(printk|_dbg|_debug|_devel|_info|_notice|_warn|_warning|_err|_error|_crit|_alert|_emerg|_cont|_log)(_[a-z]+){0,2}|[A-Z0-9_]*(PRINTK|_ERROR|_WARN|_NOTE|_INFO|_DEBUG)(_[A-Z]+)?|WARN(_ONCE|_TAINT|_TAINT_ONCE)?|panic|acpi_os_printf)$";
expression list before;
expression fmt;
position p;
@@
f(before, fmt@p, ...)

@script:python depends on r@
f << r.f;
before << r.before;
fmt << r.fmt;
p << r.p;
@@
# Only the first argument that holds a literal is the format.
where = '%s:%s' % (p[0].file, p[0].line)
if '"' in fmt and '"' not in before and (where, p[0].column) not in seen:
    seen.add((where, p[0].column))
    text = ESCAPE.sub(byte, ''.join(LITERAL.findall(fmt)))
    text = re.sub('^\x01.', '', text)   # a KERN_SOH level written out
    controls = sorted({NAMES.get(ord(c), 'other') for c in text
                       if ord(c) < 0x20 and c not in '\n\t' or ord(c) == 0x7f})
    if controls:
        formats.append((where, f, ' '.join(controls), fmt))
    if '\\x%' in text:
        hex_dumps.append((where, f, 'x%', fmt))

@finalize:python@
formats << merge.formats;
hex_dumps << merge.hex_dumps;
@@
formats = sorted(sum(formats, []))
hex_dumps = sorted(sum(hex_dumps, []))
for hit in formats + hex_dumps:
    print('%s: %s [%s] %s' % hit)
kinds = ', '.join('%d %s' % (sum(k in h[2].split() for h in formats), k)
                  for k in ('CR', 'BS', 'ESC', 'BEL', 'other'))
print('%d formats in %d files hold a control byte (%s); %d write \\x before a conversion'
      % (len(formats), len({h[0].split(':')[0] for h in formats}), kinds,
         len(hex_dumps)))
