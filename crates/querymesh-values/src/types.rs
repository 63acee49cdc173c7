//! Trino's types as the stand-in reports them: the display name (`varchar(25)`,
//! `decimal(12, 2)`), the `typeSignature` of the client protocol, and the raw name.

use std::fmt;

use serde_json::{Value, json};

/// The length Trino reports for an unbounded varchar.
pub const UNBOUNDED_VARCHAR: u32 = 2_147_483_647;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TrinoType {
    Boolean,
    TinyInt,
    SmallInt,
    Integer,
    BigInt,
    Real,
    Double,
    Decimal {
        precision: u8,
        scale: u8,
    },
    /// `None` is unbounded `varchar`.
    Varchar(Option<u32>),
    Char(u32),
    Varbinary,
    Json,
    Uuid,
    /// `ipaddress`: 16 bytes, IPv4 as IPv4-mapped IPv6 (a BLOB; SQLite's order is Trino's).
    IpAddress,
    /// `color`: an RGB integer, or a system color as -(index + 1) (ColorType).
    Color,
    /// `SetDigest`: Trino's serialized digest bytes, a BLOB (SetDigestType; the setdigest
    /// family of querymesh-functions reads and writes them).
    SetDigest,
    /// `BingTile`: Trino's encoded long (x << 28 | y << 5 | zoom), an INTEGER (BingTileType;
    /// the bing_tiles family of querymesh-functions reads and writes it).
    BingTile,
    /// `Geometry`: held as the WKT Trino prints (TEXT; the geospatial family of
    /// querymesh-functions reads and writes it).
    Geometry,
    /// `SphericalGeography`: a geometry of longitudes and latitudes, held as Geometry is.
    SphericalGeography,
    /// `HyperLogLog` and `P4HyperLogLog`: airlift's serialized HyperLogLog, a BLOB
    /// (HyperLogLogType, P4HyperLogLogType; the sketch family of querymesh-functions).
    HyperLogLog,
    P4HyperLogLog,
    /// `qdigest(T)`, T bigint, double or real: airlift's serialized QuantileDigest, a BLOB.
    QDigest(Box<TrinoType>),
    /// `tdigest`: airlift's serialized TDigest, a BLOB.
    TDigest,
    Date,
    /// `time(p)`
    Time(u8),
    /// `time(p) with time zone`
    TimeTz(u8),
    /// `timestamp(p)`
    Timestamp(u8),
    /// `timestamp(p) with time zone`
    TimestampTz(u8),
    IntervalYearToMonth,
    IntervalDayToSecond,
    Array(Box<TrinoType>),
    Map(Box<TrinoType>, Box<TrinoType>),
    /// Fields with optional names.
    Row(Vec<(Option<String>, TrinoType)>),
    /// The type of a bare NULL literal.
    Unknown,
}

impl TrinoType {
    /// `typeSignature.rawType`: the name without parameters (`varchar` for `varchar(25)`).
    pub fn raw_type(&self) -> &'static str {
        match self {
            Self::Boolean => "boolean",
            Self::TinyInt => "tinyint",
            Self::SmallInt => "smallint",
            Self::Integer => "integer",
            Self::BigInt => "bigint",
            Self::Real => "real",
            Self::Double => "double",
            Self::Decimal { .. } => "decimal",
            Self::Varchar(_) => "varchar",
            Self::Char(_) => "char",
            Self::Varbinary => "varbinary",
            Self::Json => "json",
            Self::Uuid => "uuid",
            Self::IpAddress => "ipaddress",
            Self::Color => "color",
            Self::SetDigest => "SetDigest",
            Self::BingTile => "BingTile",
            Self::Geometry => "Geometry",
            Self::SphericalGeography => "SphericalGeography",
            Self::HyperLogLog => "HyperLogLog",
            Self::P4HyperLogLog => "P4HyperLogLog",
            Self::QDigest(_) => "qdigest",
            Self::TDigest => "tdigest",
            Self::Date => "date",
            Self::Time(_) => "time",
            Self::TimeTz(_) => "time with time zone",
            Self::Timestamp(_) => "timestamp",
            Self::TimestampTz(_) => "timestamp with time zone",
            Self::IntervalYearToMonth => "interval year to month",
            Self::IntervalDayToSecond => "interval day to second",
            Self::Array(_) => "array",
            Self::Map(..) => "map",
            Self::Row(_) => "row",
            Self::Unknown => "unknown",
        }
    }

    /// The protocol's `typeSignature` object.
    pub fn type_signature(&self) -> Value {
        let long = |v: u64| json!({"kind": "LONG", "value": v});
        let ty = |t: &TrinoType| json!({"kind": "TYPE", "value": t.type_signature()});
        let arguments: Vec<Value> = match self {
            Self::Decimal { precision, scale } => {
                vec![long(*precision as u64), long(*scale as u64)]
            }
            Self::Varchar(len) => vec![long(len.unwrap_or(UNBOUNDED_VARCHAR) as u64)],
            Self::Char(len) => vec![long(*len as u64)],
            Self::Time(p) | Self::TimeTz(p) | Self::Timestamp(p) | Self::TimestampTz(p) => {
                vec![long(*p as u64)]
            }
            Self::Array(element) | Self::QDigest(element) => vec![ty(element)],
            Self::Map(k, v) => vec![ty(k), ty(v)],
            Self::Row(fields) => fields
                .iter()
                .map(|(name, t)| {
                    let mut value = json!({"typeSignature": t.type_signature()});
                    if let Some(name) = name {
                        value["fieldName"] = json!({"name": name});
                    }
                    json!({"kind": "NAMED_TYPE", "value": value})
                })
                .collect(),
            _ => vec![],
        };
        json!({"rawType": self.raw_type(), "arguments": arguments})
    }

    pub fn is_integral(&self) -> bool {
        matches!(
            self,
            Self::TinyInt | Self::SmallInt | Self::Integer | Self::BigInt
        )
    }

    pub fn is_numeric(&self) -> bool {
        self.is_integral() || matches!(self, Self::Real | Self::Double | Self::Decimal { .. })
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Self::Varchar(_) | Self::Char(_))
    }

    /// Whether values of this type are a sketch's serialized bytes (a BLOB shown as varbinary
    /// is: SetDigest, HyperLogLog, P4HyperLogLog, qdigest, tdigest).
    pub fn is_sketch(&self) -> bool {
        matches!(
            self,
            Self::SetDigest
                | Self::HyperLogLog
                | Self::P4HyperLogLog
                | Self::QDigest(_)
                | Self::TDigest
        )
    }

    /// How deep containers nest in this type: 0 for a scalar, 1 for `array(integer)`, 2 for
    /// `array(row(x integer, y array(integer)))`'s `y`'s level, and so on.
    pub fn depth(&self) -> usize {
        match self {
            Self::Array(e) => 1 + e.depth(),
            Self::Map(k, v) => 1 + k.depth().max(v.depth()),
            Self::Row(fields) => 1 + fields.iter().map(|(_, t)| t.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }

    /// Whether values of this type are held as JSON text (design: array, map, row).
    pub fn is_container(&self) -> bool {
        matches!(self, Self::Array(_) | Self::Map(..) | Self::Row(_))
    }

    /// Whether Trino orders values of this type (`<`, ORDER BY, max, array_sort): maps, json,
    /// color, BingTile and the geometries compare for equality only (or not at all); arrays
    /// and rows order when their parts do.
    pub fn is_orderable(&self) -> bool {
        match self {
            Self::Map(..)
            | Self::Json
            | Self::Color
            | Self::BingTile
            | Self::Geometry
            | Self::SphericalGeography => false,
            t if t.is_sketch() => false,
            Self::Array(e) => e.is_orderable(),
            Self::Row(fields) => fields.iter().all(|(_, t)| t.is_orderable()),
            _ => true,
        }
    }

    /// The name `typeof()` returns (`Type.getDisplayName`): the signature's arguments joined
    /// with "," (`decimal(2,1)`), except map and row, whose display names use ", "
    /// (MapType / RowType override it).
    pub fn display_name(&self) -> String {
        match self {
            Self::Decimal { precision, scale } => format!("decimal({precision},{scale})"),
            Self::Array(e) => format!("array({})", e.display_name()),
            Self::QDigest(e) => format!("qdigest({})", e.display_name()),
            Self::Map(k, v) => format!("map({}, {})", k.display_name(), v.display_name()),
            Self::Row(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(name, t)| match name {
                        Some(n) => format!("{n} {}", t.display_name()),
                        None => t.display_name(),
                    })
                    .collect();
                format!("row({})", fields.join(", "))
            }
            other => other.to_string(),
        }
    }

    /// Reads Trino's type text (`array(bigint)`, `map(varchar, array(integer))`,
    /// `row(x integer, "y z" varchar)`, `decimal(12,2)`, `timestamp(3) with time zone`, …),
    /// case-insensitively. Unquoted row field names are lowercased, as Trino canonicalizes
    /// identifiers; quoted ones are kept as written. The error is Trino's `Unknown type: …`
    /// naming the text it could not read.
    pub fn parse(text: &str) -> Result<TrinoType, String> {
        let mut p = TypeParser {
            chars: text.chars().collect(),
            i: 0,
        };
        let unknown = || format!("Unknown type: {}", text.trim().to_lowercase());
        let ty = p.ty().ok_or_else(unknown)?;
        p.skip_ws();
        if p.i != p.chars.len() {
            return Err(unknown());
        }
        Ok(ty)
    }
}

/// A recursive-descent reader of type texts for [`TrinoType::parse`].
struct TypeParser {
    chars: Vec<char>,
    i: usize,
}

impl TypeParser {
    fn skip_ws(&mut self) {
        while self.chars.get(self.i).is_some_and(|c| c.is_whitespace()) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.chars.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// An unquoted word, lowercased.
    fn word(&mut self) -> Option<String> {
        self.skip_ws();
        let start = self.i;
        while self
            .chars
            .get(self.i)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            self.i += 1;
        }
        (self.i > start).then(|| {
            self.chars[start..self.i]
                .iter()
                .collect::<String>()
                .to_lowercase()
        })
    }

    /// A `"quoted"` identifier (`""` is a quote inside it).
    fn quoted(&mut self) -> Option<String> {
        self.skip_ws();
        if self.chars.get(self.i) != Some(&'"') {
            return None;
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            match self.chars.get(self.i)? {
                '"' if self.chars.get(self.i + 1) == Some(&'"') => {
                    out.push('"');
                    self.i += 2;
                }
                '"' => {
                    self.i += 1;
                    return Some(out);
                }
                c => {
                    out.push(*c);
                    self.i += 1;
                }
            }
        }
    }

    fn number(&mut self) -> Option<u32> {
        self.skip_ws();
        let start = self.i;
        while self.chars.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.chars[start..self.i]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }

    /// `(n)` if present.
    fn length(&mut self) -> Option<Option<u32>> {
        if !self.eat('(') {
            return Some(None);
        }
        let n = self.number()?;
        self.eat(')').then_some(Some(n))
    }

    /// Whether the next words are `words` (consumed only if they all match).
    fn words(&mut self, words: &[&str]) -> bool {
        let save = self.i;
        for w in words {
            if self.word().as_deref() != Some(*w) {
                self.i = save;
                return false;
            }
        }
        true
    }

    fn precision(&mut self, default: u32, max: u32) -> Option<u8> {
        let p = self.length()?.unwrap_or(default);
        (p <= max).then_some(p as u8)
    }

    /// An opening `(` or `<`, and the character that closes it.
    fn open(&mut self) -> Option<char> {
        if self.eat('(') {
            Some(')')
        } else if self.eat('<') {
            Some('>')
        } else {
            None
        }
    }

    fn ty(&mut self) -> Option<TrinoType> {
        use TrinoType::*;
        let word = self.word()?;
        Some(match word.as_str() {
            "boolean" => Boolean,
            "tinyint" => TinyInt,
            "smallint" => SmallInt,
            "integer" | "int" => Integer,
            "bigint" => BigInt,
            "real" => Real,
            "double" => {
                self.words(&["precision"]);
                Double
            }
            "decimal" | "numeric" => {
                let (precision, scale) = if self.eat('(') {
                    let p = self.number()?;
                    let s = if self.eat(',') { self.number()? } else { 0 };
                    if !self.eat(')') {
                        return None;
                    }
                    (p, s)
                } else {
                    (38, 0)
                };
                if !(1..=38).contains(&precision) || scale > precision {
                    return None;
                }
                Decimal {
                    precision: precision as u8,
                    scale: scale as u8,
                }
            }
            "varchar" => Varchar(self.length()?.filter(|n| *n < UNBOUNDED_VARCHAR)),
            "char" => Char(self.length()?.unwrap_or(1)),
            "varbinary" => Varbinary,
            "json" => Json,
            "uuid" => Uuid,
            "ipaddress" => IpAddress,
            "color" => Color,
            "setdigest" => SetDigest,
            "bingtile" => BingTile,
            "geometry" => Geometry,
            "sphericalgeography" => SphericalGeography,
            "hyperloglog" => HyperLogLog,
            "p4hyperloglog" => P4HyperLogLog,
            "tdigest" => TDigest,
            "qdigest" => {
                if !self.eat('(') {
                    return None;
                }
                let element = self.ty()?;
                self.eat(')').then(|| QDigest(Box::new(element)))?
            }
            "date" => Date,
            "time" => {
                let p = self.precision(3, 12)?;
                if self.words(&["with", "time", "zone"]) {
                    TimeTz(p)
                } else {
                    self.words(&["without", "time", "zone"]);
                    Time(p)
                }
            }
            "timestamp" => {
                let p = self.precision(3, 12)?;
                if self.words(&["with", "time", "zone"]) {
                    TimestampTz(p)
                } else {
                    self.words(&["without", "time", "zone"]);
                    Timestamp(p)
                }
            }
            "interval" => {
                if self.words(&["year", "to", "month"]) {
                    IntervalYearToMonth
                } else if self.words(&["day", "to", "second"]) {
                    IntervalDayToSecond
                } else {
                    return None;
                }
            }
            // `array(t)` or Trino's other spelling, `array<t>` (SqlBase.g4 `type`).
            "array" => {
                let close = self.open()?;
                let element = self.ty()?;
                self.eat(close).then(|| Array(Box::new(element)))?
            }
            "map" => {
                let close = self.open()?;
                let k = self.ty()?;
                if !self.eat(',') {
                    return None;
                }
                let v = self.ty()?;
                self.eat(close).then(|| Map(Box::new(k), Box::new(v)))?
            }
            "row" => {
                if !self.eat('(') {
                    return None;
                }
                let mut fields = Vec::new();
                loop {
                    fields.push(self.field()?);
                    if self.eat(')') {
                        break;
                    }
                    if !self.eat(',') {
                        return None;
                    }
                }
                Row(fields)
            }
            "unknown" => Unknown,
            _ => return None,
        })
    }

    /// A row field: `name type`, `"name" type` or a bare `type`.
    fn field(&mut self) -> Option<(Option<String>, TrinoType)> {
        if let Some(name) = self.quoted() {
            return Some((Some(name), self.ty()?));
        }
        // A word followed by a type is a name; otherwise the word begins the type.
        let save = self.i;
        if let Some(name) = self.word() {
            let after_name = self.i;
            if let Some(t) = self.ty() {
                return Some((Some(name), t));
            }
            self.i = after_name;
        }
        self.i = save;
        Some((None, self.ty()?))
    }
}

/// The display name Trino puts in a column's `type`.
impl fmt::Display for TrinoType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Decimal { precision, scale } => write!(f, "decimal({precision}, {scale})"),
            Self::Varchar(None) => f.write_str("varchar"),
            Self::Varchar(Some(n)) => write!(f, "varchar({n})"),
            Self::Char(n) => write!(f, "char({n})"),
            Self::Time(p) => write!(f, "time({p})"),
            Self::TimeTz(p) => write!(f, "time({p}) with time zone"),
            Self::Timestamp(p) => write!(f, "timestamp({p})"),
            Self::TimestampTz(p) => write!(f, "timestamp({p}) with time zone"),
            Self::Array(e) => write!(f, "array({e})"),
            Self::QDigest(e) => write!(f, "qdigest({e})"),
            Self::Map(k, v) => write!(f, "map({k}, {v})"),
            Self::Row(fields) => {
                f.write_str("row(")?;
                for (i, (name, t)) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match name {
                        Some(n) => write!(f, "{n} {t}")?,
                        None => write!(f, "{t}")?,
                    }
                }
                f.write_str(")")
            }
            other => f.write_str(other.raw_type()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_signature_match_trino() {
        assert_eq!(TrinoType::Varchar(Some(25)).to_string(), "varchar(25)");
        assert_eq!(
            TrinoType::Decimal {
                precision: 12,
                scale: 2
            }
            .to_string(),
            "decimal(12, 2)"
        );
        assert_eq!(TrinoType::Uuid.to_string(), "uuid");
        assert_eq!(
            TrinoType::Array(Box::new(TrinoType::BigInt)).to_string(),
            "array(bigint)"
        );
        assert_eq!(
            TrinoType::Varchar(None).type_signature(),
            json!({"rawType": "varchar", "arguments": [{"kind": "LONG", "value": 2147483647u64}]})
        );
    }

    #[test]
    fn parses_trino_type_texts() {
        use TrinoType::*;
        let ok = |text: &str| TrinoType::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(ok("array(bigint)"), Array(Box::new(BigInt)));
        assert_eq!(
            ok("MAP(varchar, ARRAY(integer))"),
            Map(Box::new(Varchar(None)), Box::new(Array(Box::new(Integer))))
        );
        assert_eq!(
            ok(r#"row(X integer, "y Z" varchar(3))"#),
            Row(vec![
                (Some("x".into()), Integer),
                (Some("y Z".into()), Varchar(Some(3)))
            ])
        );
        assert_eq!(
            ok("row(integer, varchar)"),
            Row(vec![(None, Integer), (None, Varchar(None))])
        );
        // A field may be named like a type: `row(date date)`.
        assert_eq!(ok("row(date date)"), Row(vec![(Some("date".into()), Date)]));
        assert_eq!(
            ok("decimal(12,2)"),
            Decimal {
                precision: 12,
                scale: 2
            }
        );
        assert_eq!(ok("timestamp(3) with time zone"), TimestampTz(3));
        assert_eq!(ok("timestamp"), Timestamp(3));
        assert_eq!(ok("time(3)"), Time(3));
        assert_eq!(ok("time(1) with time zone"), TimeTz(1));
        assert_eq!(ok("char(2)"), Char(2));
        assert_eq!(ok("interval day to second"), IntervalDayToSecond);
        assert_eq!(ok("interval year to month"), IntervalYearToMonth);
        assert_eq!(ok(" json "), Json);
        assert_eq!(ok("varbinary"), Varbinary);
        assert_eq!(ok("UUID"), Uuid);
        assert_eq!(ok("double precision"), Double);
        assert_eq!(TrinoType::parse("foo"), Err("Unknown type: foo".into()));
        assert_eq!(
            TrinoType::parse("array(foo)"),
            Err("Unknown type: array(foo)".into())
        );
        assert!(TrinoType::parse("array(bigint").is_err());
        assert!(TrinoType::parse("decimal(39,0)").is_err());
        assert!(TrinoType::parse("map(bigint)").is_err());
        assert!(TrinoType::parse("row()").is_err());
    }

    #[test]
    fn display_names_are_typeofs() {
        // trino-facts.md: joined with "," except map and row, which use ", ".
        let t =
            TrinoType::parse("map(varchar(1), array(decimal(2,1)))").unwrap_or(TrinoType::Unknown);
        assert_eq!(t.display_name(), "map(varchar(1), array(decimal(2,1)))");
        assert_eq!(t.to_string(), "map(varchar(1), array(decimal(2, 1)))");
        let r = TrinoType::parse("row(x integer, y varchar)").unwrap_or(TrinoType::Unknown);
        assert_eq!(r.display_name(), "row(x integer, y varchar)");
        assert_eq!(
            TrinoType::parse("row(decimal(3,1))").map(|t| t.display_name()),
            Ok("row(decimal(3,1))".into())
        );
    }
}
