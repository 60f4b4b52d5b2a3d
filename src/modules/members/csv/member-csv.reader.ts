import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { AppError } from '../../../core/errors.js';
import { headerProblem } from './member-csv.columns.js';
import './member-csv.problems.js';

/** A data row of an import: its number (1 for the first row after the header), the line it starts on, its cells by column. */
export interface CsvRow {
  row: number;
  line: number;
  cells: Record<string, string>;
}

/** The most of a file's start that is searched for the end of its header line. */
const HEAD_CHARS = 64 * 1024;

/** Comma or semicolon: whichever the header line holds more of, outside quotes. */
function delimiterOf(head: string): ',' | ';' {
  const firstLineEnd = head.indexOf('\n');
  const unquoted = head.slice(0, firstLineEnd === -1 ? HEAD_CHARS : firstLineEnd).replace(/"[^"]*"/g, '');
  const count = (character: string) => unquoted.split(character).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** An error of the bytes' source (the upload, the database), passed on as it is. */
class SourceFailure extends Error {
  constructor(readonly failure: unknown) {
    super('the source failed');
  }
}

/**
 * The text of UTF-8 bytes as they come, BOM dropped; bytes that are not
 * UTF-8 are 400 `invalid_csv`. The first piece holds the header line whole
 * (or its first 64 Ki characters), so that the separator can be told.
 */
async function* textOf(slices: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = '';
  let headDone = false;
  const decode = (bytes?: Buffer) => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw new AppError('invalid_csv', 'The file is not UTF-8 text');
    }
  };
  try {
    for await (const slice of slices) {
      const text = decode(slice);
      if (headDone) {
        if (text !== '') yield text;
        continue;
      }
      head += text;
      if (head.includes('\n') || head.length >= HEAD_CHARS) {
        headDone = true;
        yield head;
      }
    }
  } catch (error) {
    throw error instanceof AppError ? error : new SourceFailure(error);
  }
  const rest = decode();
  if (!headDone && head + rest !== '') yield head + rest;
  else if (headDone && rest !== '') yield rest;
}

const newlinesIn = (text: string) => text.split('\n').length - 1;
const isBlank = (record: string[]) => record.every((cell) => cell.trim() === '');

/**
 * The rows of a CSV file (UTF-8, with or without a BOM; comma or semicolon;
 * quoted fields with embedded newlines; CRLF or LF; empty lines, and rows of
 * nothing but separators and spaces, which spreadsheets write, skipped), read
 * with csv-parse as the bytes come, a slice's rows at a time. A file that is
 * not such a CSV, whose header is not member columns, or that holds more
 * than `maxRows` rows, is 400 `invalid_csv` naming the line. An error of the
 * bytes' source is thrown as it is.
 */
export async function* readMemberCsv(slices: AsyncIterable<Buffer>, maxRows: number): AsyncGenerator<CsvRow> {
  const texts = textOf(slices);
  const first = await texts.next();
  if (first.done)
    throw new AppError('invalid_csv', 'The file is empty: its first line must name the columns');
  const parser = parse({
    delimiter: delimiterOf(first.value),
    // Each row's count of fields is checked here, so that a blank row of the wrong width is skipped too.
    relax_column_count: true,
    info: true,
    skip_empty_lines: true,
    max_record_size: 64 * 1024,
  });
  async function* all() {
    yield first.value;
    yield* texts;
  }
  const source = Readable.from(all());
  source.on('error', (error) => parser.destroy(error));
  source.pipe(parser);
  let columns: string[] | undefined;
  // The line a row starts on: csv-parse counts empty lines, the rows' own newlines are counted here.
  let linesBefore = 0;
  let row = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { empty_lines: number };
    }>) {
      const line = linesBefore + 1 + info.empty_lines;
      linesBefore += 1 + newlinesIn(record.join(''));
      if (columns === undefined) {
        columns = record.map((column) => column.trim());
        const problem = headerProblem(columns);
        if (problem !== undefined) throw new AppError('invalid_csv', `Line 1: ${problem}`);
        continue;
      }
      if (isBlank(record)) continue;
      if (record.length !== columns.length) {
        throw new AppError(
          'invalid_csv',
          `The row on line ${line} has ${record.length} fields; the header names ${columns.length} columns`,
        );
      }
      row += 1;
      if (row > maxRows) {
        throw new AppError(
          'invalid_csv',
          `The file holds more than ${maxRows} rows, the most one import takes`,
        );
      }
      const cells: Record<string, string> = {};
      for (let i = 0; i < columns.length; i++) cells[columns[i]] = record[i];
      yield { row, line, cells };
    }
  } catch (error) {
    if (error instanceof SourceFailure) throw error.failure;
    if (error instanceof AppError) throw error;
    if (error instanceof CsvError) throw new AppError('invalid_csv', error.message);
    throw error;
  } finally {
    source.destroy();
  }
  if (columns === undefined) {
    throw new AppError('invalid_csv', 'The file is empty: its first line must name the columns');
  }
}
