import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './audit-csv.js';

describe('audit CSV cells', () => {
  it('quotes every cell and doubles quotes inside', () => {
    expect(csvCell('a "quoted", word')).toBe('"a ""quoted"", word"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(42)).toBe('"42"');
    expect(csvRow(['a', 'b\r\nc'])).toBe('"a","b\r\nc"\r\n');
  });

  it('defuses what a spreadsheet would run as a formula', () => {
    for (const hostile of ['=1+1', '+1', '-2+3@example.com', '@SUM(A1)', '\t=1', '\r=1']) {
      expect(csvCell(hostile)).toBe(`"'${hostile}"`);
    }
    expect(csvCell('a=1')).toBe('"a=1"');
  });
});
