//! Reading a serialized digest: little-endian numbers, as airlift's slices write them, and
//! the reason a byte string is not a digest.

/// Why bytes are not a digest (the text is the one Trino's exception gives).
#[derive(Debug, PartialEq)]
pub struct Unreadable(pub String);

impl Unreadable {
    pub fn new(text: impl Into<String>) -> Unreadable {
        Unreadable(text.into())
    }
}

pub struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    pub fn new(bytes: &'b [u8]) -> Reader<'b> {
        Reader { bytes, at: 0 }
    }

    pub fn bytes(&mut self, n: usize) -> Result<&'b [u8], Unreadable> {
        let end = self
            .at
            .checked_add(n)
            .filter(|end| *end <= self.bytes.len());
        let Some(end) = end else {
            return Err(Unreadable::new(format!(
                "Range [{}, {} + {n}) out of bounds for length {}",
                self.at,
                self.at,
                self.bytes.len()
            )));
        };
        let read = &self.bytes[self.at..end];
        self.at = end;
        Ok(read)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], Unreadable> {
        let mut out = [0; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8, Unreadable> {
        Ok(self.array::<1>()?[0])
    }

    pub fn i16(&mut self) -> Result<i16, Unreadable> {
        self.array().map(i16::from_le_bytes)
    }

    pub fn u16(&mut self) -> Result<u16, Unreadable> {
        self.array().map(u16::from_le_bytes)
    }

    pub fn i32(&mut self) -> Result<i32, Unreadable> {
        self.array().map(i32::from_le_bytes)
    }

    pub fn i64(&mut self) -> Result<i64, Unreadable> {
        self.array().map(i64::from_le_bytes)
    }

    pub fn f64(&mut self) -> Result<f64, Unreadable> {
        self.array().map(f64::from_le_bytes)
    }

    pub fn is_done(&self) -> bool {
        self.at == self.bytes.len()
    }
}
