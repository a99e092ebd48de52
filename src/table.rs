//! Records as Parquet tables, for the commands that write or read JSON
//! Lines: a generator's tasks, `judge --batch` results and inputs.
//!
//! One way for all of them: a command produces its JSON Lines as it always
//! does, and [`ParquetSink`] turns that stream into a Parquet file whose
//! columns are the records' keys, named exactly as in the JSON (so
//! SLR-Bench's `validation program` stays `validation program`) and in the
//! order they first appear, with nested objects and arrays as struct and
//! list columns. [`parquet_lines`] turns a
//! Parquet file back into JSON Lines for a command that reads them.
//!
//! Column types are inferred from every record, not a prefix: the lines are
//! spooled to a temporary file and read twice (once to infer, once to
//! write), so memory stays bounded however many records there are, and a
//! field that is `null` in the first thousand records and a string later
//! still gets a string column.

use arrow_array::RecordBatch;
use arrow_json::reader::infer_json_schema;
use arrow_json::ReaderBuilder;
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{ParquetRecordBatchReader, ParquetRecordBatchReaderBuilder};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::sync::Arc;

/// Rows per record batch, read or written.
const BATCH_ROWS: usize = 4096;

/// The on-disk format of a command's records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// One JSON object per line.
    #[default]
    Jsonl,
    /// An Apache Parquet file, one row per record.
    Parquet,
}

/// Whether `bytes` (the start of a file) are a Parquet file's magic number.
pub fn is_parquet(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PAR1")
}

/// An `io::Write` that takes JSON Lines and, on [`ParquetSink::finish`],
/// writes them as one Parquet file to the wrapped writer.
pub struct ParquetSink<W: Write + Send> {
    spool: BufWriter<File>,
    out: W,
}

impl<W: Write + Send> ParquetSink<W> {
    /// A sink that will write its Parquet file to `out`.
    pub fn new(out: W) -> io::Result<ParquetSink<W>> {
        Ok(ParquetSink {
            spool: BufWriter::new(tempfile::tempfile()?),
            out,
        })
    }

    /// Infers the columns from every record and writes the file. Zero
    /// records give a valid file with no columns and no rows.
    pub fn finish(self) -> io::Result<W> {
        let mut spool = self.spool.into_inner().map_err(|e| e.into_error())?;
        spool.seek(SeekFrom::Start(0))?;
        let (mut spool, keys) = as_text_where_mixed(spool)?;
        spool.seek(SeekFrom::Start(0))?;
        let (schema, _) = infer_json_schema(BufReader::new(&spool), None).map_err(invalid)?;
        let schema = Arc::new(in_key_order(without_null_columns(schema), &keys));
        spool.seek(SeekFrom::Start(0))?;
        let reader = ReaderBuilder::new(schema.clone())
            .with_batch_size(BATCH_ROWS)
            .with_coerce_primitive(true)
            .build(BufReader::new(spool))
            .map_err(invalid)?;
        let properties = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        let mut writer =
            ArrowWriter::try_new(self.out, schema, Some(properties)).map_err(invalid)?;
        for batch in reader {
            writer.write(&batch.map_err(invalid)?).map_err(invalid)?;
        }
        writer.into_inner().map_err(invalid)
    }
}

impl<W: Write + Send> Write for ParquetSink<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.spool.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.spool.flush()
    }
}

/// What a top-level value is, for finding columns no one type can hold.
fn kind_bit(raw: &str) -> u8 {
    match raw.as_bytes().first() {
        Some(b'{') => 1,
        Some(b'[') => 2,
        Some(b'n') => 0,
        Some(b'"' | b't' | b'f') => 4,
        // A number: an integer beyond 64 bits has no Parquet type.
        _ if !raw.contains(['.', 'e', 'E']) && raw.parse::<i64>().is_err() => 8,
        _ => 4,
    }
}

/// `schema` with its columns in `keys`' order (the order in which the
/// records' keys first appear), whatever order inference gave them.
fn in_key_order(schema: Schema, keys: &[String]) -> Schema {
    let rank = |name: &str| keys.iter().position(|k| k == name).unwrap_or(keys.len());
    let mut fields: Vec<_> = schema.fields().iter().cloned().collect();
    fields.sort_by_key(|field| rank(field.name()));
    Schema::new_with_metadata(fields, schema.metadata().clone())
}

/// The spooled records, with the values of every key whose records mix
/// objects, arrays and scalars (an `id` that is an object in one record and
/// a number in the others), or hold an integer beyond 64 bits, replaced by
/// their JSON text as a string: a column takes one type, and text keeps
/// every value exactly. Other keys are left as they are (mixed scalars
/// become strings when written, see [`ReaderBuilder::with_coerce_primitive`]).
/// Also the records' top-level keys, in the order they first appear.
fn as_text_where_mixed(mut spool: File) -> io::Result<(File, Vec<String>)> {
    let mut kinds: std::collections::BTreeMap<String, u8> = Default::default();
    let mut keys = Vec::new();
    for line in BufReader::new(&spool).lines() {
        let line = line?;
        for (key, value) in entries(&line)? {
            let kind = kind_bit(value);
            match kinds.get_mut(&key) {
                Some(bits) => *bits |= kind,
                None => {
                    keys.push(key.clone());
                    kinds.insert(key, kind);
                }
            }
        }
    }
    let mixed: std::collections::BTreeSet<String> = kinds
        .into_iter()
        .filter(|(_, bits)| bits & 8 != 0 || (bits & 3 != 0 && bits.count_ones() > 1))
        .map(|(key, _)| key)
        .collect();
    if mixed.is_empty() {
        return Ok((spool, keys));
    }
    spool.seek(SeekFrom::Start(0))?;
    let mut rewritten = BufWriter::new(tempfile::tempfile()?);
    for line in BufReader::new(&spool).lines() {
        let line = line?;
        let mut text = String::with_capacity(line.len() + 16);
        for (i, (key, value)) in entries(&line)?.into_iter().enumerate() {
            text.push(if i == 0 { '{' } else { ',' });
            text.push_str(&serde_json::to_string(&key).map_err(invalid)?);
            text.push(':');
            match mixed.contains(&key) && value != "null" {
                true => text.push_str(&serde_json::to_string(value).map_err(invalid)?),
                false => text.push_str(value),
            }
        }
        if !text.is_empty() {
            rewritten.write_all(text.as_bytes())?;
            rewritten.write_all(b"}\n")?;
        }
    }
    Ok((rewritten.into_inner().map_err(|e| e.into_error())?, keys))
}

/// A record's top-level keys and values' JSON text, in order (none for a
/// blank line).
fn entries(line: &str) -> io::Result<Vec<(String, &str)>> {
    if line.trim().is_empty() {
        return Ok(Vec::new());
    }
    crate::syntax::json::object_entries(line)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "a record is not a JSON object"))
}

/// A column that was `null` in every record has no type of its own; it is
/// written as a string column of nulls, which every Parquet reader takes.
fn without_null_columns(schema: Schema) -> Schema {
    let fields: Vec<Field> = schema
        .fields()
        .iter()
        .map(|field| match field.data_type() {
            DataType::Null => Field::new(field.name(), DataType::Utf8, true),
            _ => field.as_ref().clone(),
        })
        .collect();
    Schema::new(fields)
}

fn invalid(error: impl std::error::Error + Send + Sync + 'static) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, error)
}

/// Runs `read`, turning a panic into an error: the parquet crate panics on
/// some malformed files instead of returning an error, and a bad input file
/// must not take the process down.
fn guarded<T>(read: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "malformed Parquet file (the reader gave up on it)",
        ))
    })
}

/// A file of records as JSON Lines: a Parquet file's rows (see
/// [`parquet_lines`]), any other file as it is.
pub fn json_lines(file: File) -> io::Result<Box<dyn BufRead + Send>> {
    // Peeked, not read and sought back: the input may be a pipe
    // (`--batch <(zcat answers.jsonl.gz)`), which cannot seek. A Parquet
    // file is read by offsets from its footer.
    let mut reader = BufReader::new(file);
    if is_parquet(reader.fill_buf()?) {
        Ok(Box::new(parquet_lines(reader.into_inner())?))
    } else {
        Ok(Box::new(reader))
    }
}

/// How many rows a Parquet file has, read from its footer.
pub fn parquet_rows(file: File) -> io::Result<u64> {
    guarded(|| {
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).map_err(invalid)?;
        Ok(reader.metadata().file_metadata().num_rows().max(0) as u64)
    })
}

/// The rows of a Parquet file as JSON Lines, read a batch at a time. Null
/// values are written out (`"error": null`), as our own JSON Lines have them.
pub fn parquet_lines(file: File) -> io::Result<impl BufRead> {
    let reader = guarded(|| {
        ParquetRecordBatchReaderBuilder::try_new(file)
            .map_err(invalid)?
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(invalid)
    })?;
    Ok(BufReader::new(ParquetJsonLines {
        batches: Some(reader),
        buffer: Vec::new(),
        position: 0,
    }))
}

/// A batch whose binary columns are read as UTF-8 text (as a `prediction`
/// column written by some tools is): a value that is not UTF-8 becomes
/// null, so only its row is refused (a mistyped field).
fn binary_as_text(batch: &RecordBatch) -> io::Result<RecordBatch> {
    use arrow_array::cast::AsArray;
    use arrow_array::{ArrayRef, StringArray};
    let schema = batch.schema();
    if !schema.fields().iter().any(|f| {
        matches!(
            f.data_type(),
            DataType::Binary | DataType::LargeBinary | DataType::BinaryView
        )
    }) {
        return Ok(batch.clone());
    }
    let text = |values: &mut dyn Iterator<Item = Option<&[u8]>>| -> ArrayRef {
        Arc::new(
            values
                .map(|v| v.and_then(|b| std::str::from_utf8(b).ok()))
                .collect::<StringArray>(),
        )
    };
    let mut fields = Vec::with_capacity(schema.fields().len());
    let mut columns = Vec::with_capacity(fields.capacity());
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        let converted = match field.data_type() {
            DataType::Binary => Some(text(&mut column.as_binary::<i32>().iter())),
            DataType::LargeBinary => Some(text(&mut column.as_binary::<i64>().iter())),
            DataType::BinaryView => Some(text(&mut column.as_binary_view().iter())),
            _ => None,
        };
        match converted {
            Some(array) => {
                fields.push(Field::new(field.name(), DataType::Utf8, true));
                columns.push(array);
            }
            None => {
                fields.push(field.as_ref().clone());
                columns.push(column.clone());
            }
        }
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), columns).map_err(invalid)
}

/// [`parquet_lines`]' reader: one batch's JSON Lines at a time.
struct ParquetJsonLines {
    /// `None` once reading failed: a reader that panicked is not reused.
    batches: Option<ParquetRecordBatchReader>,
    buffer: Vec<u8>,
    position: usize,
}

impl ParquetJsonLines {
    fn lines_of(batch: &RecordBatch, buffer: &mut Vec<u8>) -> io::Result<()> {
        let batch = binary_as_text(batch)?;
        let mut writer = arrow_json::WriterBuilder::new()
            .with_explicit_nulls(true)
            .build::<_, arrow_json::writer::LineDelimited>(buffer);
        writer.write(&batch).map_err(invalid)?;
        writer.finish().map_err(invalid)
    }
}

impl Read for ParquetJsonLines {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.position == self.buffer.len() {
            self.buffer.clear();
            self.position = 0;
            let Some(batches) = &mut self.batches else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "the Parquet file could not be read",
                ));
            };
            let buffer = &mut self.buffer;
            let read = guarded(|| match batches.next() {
                None => Ok(false),
                Some(batch) => Self::lines_of(&batch.map_err(invalid)?, buffer).map(|()| true),
            });
            match read {
                Ok(true) => {}
                Ok(false) => return Ok(0),
                Err(e) => {
                    self.batches = None;
                    return Err(e);
                }
            }
        }
        let n = out.len().min(self.buffer.len() - self.position);
        out[..n].copy_from_slice(&self.buffer[self.position..self.position + n]);
        self.position += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn round_trip(records: &[Value]) -> Vec<Value> {
        let mut sink = ParquetSink::new(Vec::new()).expect("spool");
        for record in records {
            writeln!(sink, "{record}").expect("spooled");
        }
        let bytes = sink.finish().expect("written");
        assert!(is_parquet(&bytes));
        let mut file = tempfile::tempfile().expect("temp file");
        file.write_all(&bytes).expect("written");
        file.seek(SeekFrom::Start(0)).expect("rewound");
        parquet_lines(file)
            .expect("read")
            .lines()
            .map(|line| serde_json::from_str(&line.expect("line")).expect("json"))
            .collect()
    }

    #[test]
    fn records_come_back_with_their_names_types_and_nulls() {
        let records = vec![
            json!({"id": 0, "validation program": "eastbound(train0).", "error": null,
                   "partial_score": 0.5, "is_correct": false,
                   "evaluation_config": {"positive_predicate": "eastbound"},
                   "examples": [{"atom": "eastbound(train0)", "correct": true}]}),
            json!({"id": 1, "validation program": "westbound(train1).", "error": "timeout",
                   "partial_score": 1.0, "is_correct": true,
                   "evaluation_config": {"positive_predicate": "eastbound"},
                   "examples": []}),
        ];
        assert_eq!(round_trip(&records), records);
    }

    #[test]
    fn a_column_null_until_late_still_gets_its_type() {
        let mut records: Vec<Value> = (0..5000).map(|i| json!({"id": i, "error": null})).collect();
        records.push(json!({"id": 5000, "error": "runtime"}));
        let back = round_trip(&records);
        assert_eq!(back.len(), records.len());
        assert_eq!(back[5000], records[5000]);
        assert_eq!(back[0], records[0]);
    }

    /// Every single-bit corruption of a small file reads to rows or an
    /// error, never a panic; some of them make the parquet crate panic,
    /// which [`guarded`] turns into an error.
    #[test]
    fn corrupt_files_give_errors_not_panics() {
        let mut sink = ParquetSink::new(Vec::new()).expect("spool");
        for i in 0..20 {
            let record = json!({"id": i % 3, "prediction": "p", "nested": {"a": [i, i + 1]}});
            writeln!(sink, "{record}").expect("spooled");
        }
        let bytes = sink.finish().expect("written");
        let mut gave_up = 0;
        for at in 0..bytes.len() {
            for bit in [0x01u8, 0x10, 0x80] {
                let mut corrupt = bytes.clone();
                corrupt[at] ^= bit;
                let mut file = tempfile::tempfile().expect("temp file");
                file.write_all(&corrupt).expect("written");
                file.seek(SeekFrom::Start(0)).expect("rewound");
                let error = match json_lines(file) {
                    Err(e) => Some(e),
                    Ok(lines) => lines.lines().find_map(Result::err),
                };
                gave_up += error.is_some_and(|e| e.to_string().contains("gave up")) as usize;
            }
        }
        assert!(gave_up > 0, "no corruption reached a reader panic");
    }

    /// An object id among numbers, and integers beyond 64 bits, make the
    /// column text, each value exactly its JSON; the other columns keep
    /// their types and the records their key order.
    #[test]
    fn columns_no_type_holds_become_json_text() {
        let lines = [
            r#"{"id":3,"score":0.5,"big":1}"#,
            r#"{"id":{"task":"a","n":[1,2]},"score":1.0,"big":123456789012345678901234567890}"#,
            r#"{"id":null,"score":0.0,"big":-9223372036854775809}"#,
        ];
        let mut sink = ParquetSink::new(Vec::new()).expect("spool");
        for line in lines {
            writeln!(sink, "{line}").expect("spooled");
        }
        let bytes = sink.finish().expect("written");
        let mut file = tempfile::tempfile().expect("temp file");
        file.write_all(&bytes).expect("written");
        file.seek(SeekFrom::Start(0)).expect("rewound");
        let back: Vec<String> = parquet_lines(file)
            .expect("read")
            .lines()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            back,
            [
                r#"{"id":"3","score":0.5,"big":"1"}"#,
                r#"{"id":"{\"task\":\"a\",\"n\":[1,2]}","score":1.0,"big":"123456789012345678901234567890"}"#,
                r#"{"id":null,"score":0.0,"big":"-9223372036854775809"}"#,
            ]
        );
    }

    #[test]
    fn mixed_ids_become_strings_and_no_records_is_a_valid_file() {
        let back = round_trip(&[json!({"id": 3}), json!({"id": "slr-7"})]);
        assert_eq!(back, vec![json!({"id": "3"}), json!({"id": "slr-7"})]);
        assert!(round_trip(&[]).is_empty());
    }
}
