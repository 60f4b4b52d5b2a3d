import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError } from '../../../core/errors.js';
import { headerProblem } from './member-csv.columns.js';
import './member-csv.problems.js';

/** A data row of an import: its number (1 for the first row after the header), the line it starts on, its cells by column. */
export interface CsvRow {
  row: number;
  line: number;
  cells: Record<string, string>;
}

/** Comma or semicolon: whichever the header line holds more of, outside quotes. */
function delimiterOf(csv: Buffer): ',' | ';' {
  const firstLineEnd = csv.indexOf(10);
  const head = csv
    .subarray(0, firstLineEnd === -1 ? Math.min(csv.length, 64 * 1024) : firstLineEnd)
    .toString();
  const unquoted = head.replace(/"[^"]*"/g, '');
  const count = (character: string) => unquoted.split(character).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Slices of the body, for the parser to read one after the other. */
function* slicesOf(csv: Buffer): Generator<Buffer> {
  for (let start = 0; start < csv.length; start += SLICE_BYTES)
    yield csv.subarray(start, start + SLICE_BYTES);
}
const SLICE_BYTES = 64 * 1024;

const newlinesIn = (text: string) => text.split('\n').length - 1;

/**
 * The rows of a CSV file (UTF-8, with or without a BOM; comma or semicolon;
 * quoted fields with embedded newlines; CRLF or LF; empty lines skipped),
 * read with csv-parse as they come. A file that is not such a CSV, whose
 * header is not member columns, or that holds more than `maxRows` rows, is
 * 400 `invalid_csv` naming the line.
 */
export async function* readMemberCsv(csv: Buffer, maxRows: number): AsyncGenerator<CsvRow> {
  if (!isUtf8(csv)) throw new AppError('invalid_csv', 'The file is not UTF-8 text');
  let problem: string | undefined;
  let headerRead = false;
  const parser = parse({
    bom: true,
    delimiter: delimiterOf(csv),
    columns: (header: string[]) => {
      headerRead = true;
      problem = headerProblem(header.map((column) => column.trim()));
      if (problem !== undefined) throw new Error(problem);
      return header.map((column) => column.trim());
    },
    info: true,
    skip_empty_lines: true,
    max_record_size: 64 * 1024,
  });
  // Fed in slices, so that the parser holds a slice's rows, not the file's: the rows are read as they are imported.
  Readable.from(slicesOf(csv)).pipe(parser);
  // The line a row starts on: csv-parse counts empty lines, the rows' own newlines are counted here.
  let linesBefore = 1;
  let row = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { empty_lines: number };
    }>) {
      row += 1;
      if (row > maxRows) {
        throw new AppError(
          'invalid_csv',
          `The file holds more than ${maxRows} rows, the most one import takes`,
        );
      }
      const line = linesBefore + 1 + info.empty_lines;
      linesBefore += 1 + newlinesIn(Object.values(record).join(''));
      yield { row, line, cells: record };
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = problem ?? (error as Error).message;
    const where = problem === undefined ? '' : 'Line 1: ';
    throw new AppError('invalid_csv', `${where}${message}`);
  }
  if (!headerRead)
    throw new AppError('invalid_csv', 'The file is empty: its first line must name the columns');
}

/**
 * Reads the whole file once, writing nothing: a broken quote on its last
 * line, or a row past `maxRows`, is refused before any row is written, even
 * when the import commits chunk by chunk.
 */
export async function assertMemberCsvReadable(csv: Buffer, maxRows: number): Promise<void> {
  for await (const _row of readMemberCsv(csv, maxRows)) {
    // Only the reading is wanted.
  }
}
