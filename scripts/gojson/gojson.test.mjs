// Checks the rendering rules against what Go's strconv and
// rows/json.go print (the expected strings come from Go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDecimal, jsonFloat, jsonHex, jsonString } from './gojson.mjs';

const floats = [
{ bits: 32, f: 419.95312, want: '419.95312' },
{ bits: 32, f: 1e+06, want: '1e+06' },
{ bits: 32, f: 123456, want: '123456' },
{ bits: 32, f: 1.234567e+06, want: '1.234567e+06' },
{ bits: 32, f: 0.0001, want: '0.0001' },
{ bits: 32, f: 1e-05, want: '1e-05' },
{ bits: 32, f: 1e-45, want: '1e-45' },
{ bits: 32, f: 3.4028235e+38, want: '3.4028235e+38' },
{ bits: 32, f: 0.1, want: '0.1' },
{ bits: 32, f: 1.6777216e+07, want: '1.6777216e+07' },
{ bits: 32, f: 1.1754942e-38, want: '1.1754942e-38' },
{ bits: 32, f: -2.5, want: '-2.5' },
{ bits: 64, f: 5e-324, want: '5e-324' },
{ bits: 64, f: 1.7976931348623157e+308, want: '1.7976931348623157e+308' },
{ bits: 64, f: 0.1, want: '0.1' },
{ bits: 64, f: 1e+21, want: '1e+21' },
{ bits: 64, f: 1e+20, want: '1e+20' },
{ bits: 64, f: 1.23456789e+08, want: '1.23456789e+08' },
{ bits: 64, f: 1e-07, want: '1e-07' },
{ bits: 64, f: 2.2250738585072014e-308, want: '2.2250738585072014e-308' },
{ bits: 64, f: -0.5, want: '-0.5' },
{ bits: 64, f: 100000, want: '100000' },
{ bits: 64, f: 1e+06, want: '1e+06' },
];

test('jsonFloat prints as strconv.AppendFloat(f, \'g\', -1, bits)', () => {
  for (const { bits, f, want } of floats) {
    const v = bits === 32 ? Math.fround(f) : f;
    assert.equal(jsonFloat(v, bits), want, `${f} at ${bits} bits`);
    assert.equal(jsonFloat(-v, bits), want.startsWith('-') ? want.slice(1) : '-' + want, `-${f} at ${bits} bits`);
  }
  assert.equal(jsonFloat(NaN, 64), '"NaN"');
  assert.equal(jsonFloat(Infinity, 32), '"Infinity"');
  assert.equal(jsonFloat(-Infinity, 64), '"-Infinity"');
  assert.equal(jsonFloat(-0, 64), '-0');
  assert.equal(jsonFloat(0, 32), '0');
});

test('jsonString escapes as record.AppendString', () => {
  assert.equal(jsonString('a"b\\c'), '"a\\"b\\\\c"');
  assert.equal(jsonString('\n\r\t\u0001\u001f'), '"\\n\\r\\t\\u0001\\u001f"');
  assert.equal(jsonString('<>&\u007f é中🎉'), '"<>&\u007f é中🎉"');
});

test('jsonHex and jsonDecimal write lowercase hex', () => {
  assert.equal(jsonHex(Uint8Array.of(0, 0xab, 0x10)), '"00ab10"');
  assert.equal(jsonDecimal(-1n, 4), '"ffffffff"');
  assert.equal(jsonDecimal(255n), '"00ff"');
  assert.equal(jsonDecimal(-128n), '"80"');
  assert.equal(jsonDecimal(12345n, 16), '"00000000000000000000000000003039"');
});
