//! Checks a real answer against an OpenAPI 3.1 document: its status is documented for the
//! operation, its Content-Type is one the document gives, and its JSON body validates against
//! the schema. The validator covers the subset of JSON Schema 2020-12 the sandbox's document
//! uses, and refuses any keyword outside it, so the document cannot grow a constraint that
//! goes unchecked. (The `jsonschema` crate would do as well, at the cost of its build: 0.33
//! without default features is 79 crates, 28 of them new to this workspace — fancy-regex,
//! num-bigint and the rest of `num`, fraction, email_address, fluent-uri, parking_lot… — for
//! one document of a few dozen schemas.)

#![allow(dead_code)]

use serde_json::Value;

/// Keywords the validator checks.
const CHECKED: [&str; 14] = [
    "$ref",
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "oneOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minLength",
    "maxLength",
];
/// Keywords that only annotate.
const ANNOTATIONS: [&str; 2] = ["description", "default"];

pub struct Document(pub Value);

impl Document {
    /// `value`, following a local `$ref` (`#/components/…`) if it is one.
    fn resolve<'a>(&'a self, value: &'a Value) -> Result<&'a Value, String> {
        match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let pointer = reference
                    .strip_prefix('#')
                    .ok_or_else(|| format!("{reference}: not a local reference"))?;
                let target = self
                    .0
                    .pointer(pointer)
                    .ok_or_else(|| format!("{reference}: nothing there"))?;
                self.resolve(target)
            }
            None => Ok(value),
        }
    }

    /// The operation `method` `path` (the document's templated path).
    pub fn operation(&self, method: &str, path: &str) -> Result<&Value, String> {
        self.0["paths"]
            .get(path)
            .and_then(|p| p.get(method.to_ascii_lowercase()))
            .ok_or_else(|| format!("{method} {path} is not in the document"))
    }

    /// Checks one answer of `method` `path`.
    pub fn check(
        &self,
        method: &str,
        path: &str,
        status: u16,
        content_type: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(), String> {
        let what = format!("{method} {path} → {status}");
        let operation = self.operation(method, path)?;
        let response = operation["responses"]
            .get(status.to_string())
            .ok_or_else(|| format!("{what}: the status is not documented"))?;
        let response = self.resolve(response)?;
        let Some(content) = response.get("content").and_then(Value::as_object) else {
            return match body {
                None => Ok(()),
                Some(body) => Err(format!("{what}: documented without a body, got {body}")),
            };
        };
        let essence = content_type
            .and_then(|c| c.split(';').next())
            .map(str::trim)
            .ok_or_else(|| format!("{what}: no Content-Type"))?;
        let media = content
            .get(essence)
            .ok_or_else(|| format!("{what}: Content-Type {essence} is not documented"))?;
        match body {
            Some(body) => self
                .validate(&media["schema"], body, "$")
                .map_err(|e| format!("{what}: {e}")),
            None => Ok(()),
        }
    }

    /// Validates `value` against `schema`; the error names where (`$.field[0]`).
    pub fn validate(&self, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
        let schema = self.resolve(schema)?;
        let Some(keywords) = schema.as_object() else {
            return Err(format!("{at}: the schema is not an object"));
        };
        for keyword in keywords.keys() {
            if !CHECKED.contains(&keyword.as_str()) && !ANNOTATIONS.contains(&keyword.as_str()) {
                return Err(format!("{at}: the checker does not know `{keyword}`"));
            }
        }
        if let Some(types) = schema.get("type") {
            let types: Vec<&str> = match types {
                Value::String(one) => vec![one.as_str()],
                Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
                _ => return Err(format!("{at}: `type` is neither a name nor a list")),
            };
            if !types.iter().any(|t| is_type(value, t)) {
                return Err(format!("{at}: {value} is not of type {types:?}"));
            }
        }
        if let Some(expected) = schema.get("const")
            && value != expected
        {
            return Err(format!("{at}: {value} is not {expected}"));
        }
        if let Some(options) = schema.get("enum").and_then(Value::as_array)
            && !options.contains(value)
        {
            return Err(format!("{at}: {value} is not one of {options:?}"));
        }
        if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = options
                .iter()
                .filter(|option| self.validate(option, value, at).is_ok())
                .count();
            if matching != 1 {
                return Err(format!(
                    "{at}: {value} matches {matching} of oneOf's schemas, not one"
                ));
            }
        }
        if let Some(n) = value.as_f64() {
            let bound = |name: &str| schema.get(name).and_then(Value::as_f64);
            if bound("minimum").is_some_and(|m| n < m)
                || bound("maximum").is_some_and(|m| n > m)
                || bound("exclusiveMinimum").is_some_and(|m| n <= m)
            {
                return Err(format!("{at}: {n} is out of the schema's range"));
            }
        }
        if let Some(text) = value.as_str() {
            let length = text.chars().count() as u64;
            let bound = |name: &str| schema.get(name).and_then(Value::as_u64);
            if bound("minLength").is_some_and(|m| length < m)
                || bound("maxLength").is_some_and(|m| length > m)
            {
                return Err(format!("{at}: {length} characters is out of range"));
            }
        }
        if let (Some(items), Some(values)) = (schema.get("items"), value.as_array()) {
            for (i, item) in values.iter().enumerate() {
                self.validate(items, item, &format!("{at}[{i}]"))?;
            }
        }
        if let Some(fields) = value.as_object() {
            let properties = schema.get("properties").and_then(Value::as_object);
            for name in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !fields.contains_key(name) {
                    return Err(format!("{at}: `{name}` is required"));
                }
            }
            for (name, field) in fields {
                let at = format!("{at}.{name}");
                match properties.and_then(|p| p.get(name)) {
                    Some(property) => self.validate(property, field, &at)?,
                    None => match schema.get("additionalProperties") {
                        Some(Value::Bool(false)) => {
                            return Err(format!("{at}: not a property of the schema"));
                        }
                        Some(Value::Bool(true)) | None => {}
                        Some(other) => self.validate(other, field, &at)?,
                    },
                }
            }
        }
        Ok(())
    }
}

fn is_type(value: &Value, name: &str) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        _ => false,
    }
}
