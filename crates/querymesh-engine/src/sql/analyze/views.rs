//! SQLite views of a developer's catalogs under the row filters and column masks of the
//! tables they read. SQLite runs a view as it stands, around any policy; so a view reading a
//! table the reader's rules filter or mask is expanded instead, as Trino expands a view during
//! analysis (StatementAnalyzer.analyzeView): its `SELECT` is analysed as Trino SQL in the
//! view's catalog and schema, and every table it reads gets the reader's filters and masks and
//! is checked for the reader. Trino uses the view owner's identity for a SECURITY DEFINER view
//! and the invoker's otherwise; a SQLite view has no owner, so the reader (the querying
//! person, or a filter's or mask's identity) is used — SECURITY INVOKER.
//!
//! The result keeps the view's columns as the catalog lists them (names and types): a column
//! whose Trino type does not coerce to the listed one, a different column count, or SQL that
//! is not Trino SQL keeps the view refused, the message saying why. A view none of whose
//! tables is shaped for the reader is read from SQLite directly, as before.

use querymesh_values::coerce::super_type;
use querymesh_values::sqlite_expr::{FromItem, Select as SqlSelect, SqlExpr};
use querymesh_values::typed::Typed;
use sqlparser::dialect::SQLiteDialect;
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, Tokenizer};

use crate::SessionContext;
use crate::catalog::TableMeta;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::Analyzer;
use crate::sql::analyze::policy::Frame;
use crate::sql::analyze::select::output_name;

impl Analyzer<'_> {
    /// The source reading `view` as Trino SQL when a table it reads is filtered or masked for
    /// the reader; `None` for a table, or a view SQLite may read as it stands.
    pub(in crate::sql) fn shaped_view_source(
        &mut self,
        view: &TableMeta,
        at: Option<Position>,
    ) -> Result<Option<SqlSelect>, TrinoError> {
        let (Some(viewer), Some(reads)) = (
            self.session.viewer.as_ref(),
            self.catalogs
                .view_reads(&view.catalog, &view.schema, &view.name),
        ) else {
            return Ok(None);
        };
        let Some(shaped) = reads.iter().find(|t| {
            viewer
                .table_policy(&view.catalog, &view.schema, t)
                .is_some()
        }) else {
            return Ok(None);
        };
        // Trino's Access Denied messages name no place in the query.
        let refuse = |why: String| {
            TrinoError::new(
                ErrorName::PermissionDenied,
                format!(
                    "Access Denied: Cannot select from view {}: it reads table {}.{}.{shaped}, \
                     whose row filter or column masks apply, and the QueryMesh stand-in cannot \
                     read the view as Trino SQL to apply them: {why}",
                    view.qualified_name(),
                    view.catalog,
                    view.schema
                ),
            )
        };
        let name = view.qualified_name();
        let frame = Frame::View(name.clone());
        if self.frames.contains(&frame) {
            return Err(error_at(
                ErrorName::ViewIsRecursive,
                at,
                format!("View is recursive: {name}"),
            ));
        }
        let select = self
            .catalogs
            .view_sql(&view.catalog, &view.schema, &view.name)
            .and_then(view_query)
            .ok_or_else(|| refuse("its CREATE VIEW statement has no AS <query>".into()))?;
        let (query, tokens) = crate::sql::parse_query(select).map_err(|e| refuse(e.message()))?;
        // Trino's view session: the view's catalog and schema, the reader's identity.
        let session = SessionContext {
            catalog: Some(view.catalog.clone()),
            schema: Some(view.schema.clone()),
            ..self.session.clone()
        };
        let mut nested = Analyzer::new(self.catalogs, &session, &tokens);
        nested.next_alias = self.next_alias;
        nested.stack = self.stack;
        nested.frames = std::mem::take(&mut self.frames);
        nested.frames.push(frame);
        let block = nested.query(&query, None);
        nested.frames.pop();
        self.next_alias = nested.next_alias;
        self.frames = std::mem::take(&mut nested.frames);
        let block = block.map_err(|e| match e.name {
            // The policies' own failures stand as they are; anything else is the view's SQL.
            ErrorName::PermissionDenied
            | ErrorName::InvalidRowFilter
            | ErrorName::InvalidColumnMask
            | ErrorName::ViewIsRecursive => e,
            _ => refuse(e.message()),
        })?;
        if block.columns.len() != view.columns.len() {
            return Err(refuse(format!(
                "its query has {} columns as Trino reads it, the view {}",
                block.columns.len(),
                view.columns.len()
            )));
        }
        let alias = self.alias("v");
        let mut items = Vec::with_capacity(view.columns.len());
        for (i, (column, (_, ty))) in view.columns.iter().zip(&block.columns).enumerate() {
            let value = Typed::new(
                SqlExpr::column(Some(&alias), output_name(i + 1)),
                ty.clone(),
            );
            if super_type(ty, &column.ty).as_ref() != Some(&column.ty) {
                return Err(refuse(format!(
                    "its column {} is {ty} as Trino reads it, which does not coerce to the \
                     view's {}",
                    column.name, column.ty
                )));
            }
            let value = self.coerce_to(value, &column.ty, None)?;
            items.push((value.sql, Some(column.name.clone())));
        }
        // The person's reads inside the view are theirs: checked and recorded with the query's.
        self.reads.append(&mut nested.reads);
        Ok(Some(SqlSelect {
            columns: items,
            from: vec![FromItem::query(block.sql, Some(alias))],
            ..SqlSelect::default()
        }))
    }
}

/// The query of a `CREATE VIEW name [(columns)] AS query` statement, as written: what follows
/// the first `AS` outside parentheses.
pub fn view_query(create: &str) -> Option<&str> {
    let tokens = Tokenizer::new(&SQLiteDialect {}, create)
        .tokenize_with_location()
        .ok()?;
    let mut depth = 0usize;
    let as_token = tokens.iter().find(|t| {
        match &t.token {
            Token::LParen => depth += 1,
            Token::RParen => depth = depth.saturating_sub(1),
            Token::Word(w) if depth == 0 && w.keyword == Keyword::AS && w.quote_style.is_none() => {
                return true;
            }
            _ => {}
        }
        false
    })?;
    let end = as_token.span.end;
    let offset = byte_offset(create, end.line, end.column)?;
    create.get(offset..).map(str::trim)
}

/// Where 1-based `line` and `column` (counted in characters, as the tokenizer counts) fall in
/// `text`.
fn byte_offset(text: &str, line: u64, column: u64) -> Option<usize> {
    let mut start = 0;
    for (n, l) in text.split_inclusive('\n').enumerate() {
        if n as u64 + 1 == line {
            let skip = usize::try_from(column.checked_sub(1)?).ok()?;
            return Some(
                l.char_indices()
                    .nth(skip)
                    .map_or(start + l.len(), |(b, _)| start + b),
            );
        }
        start += l.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::sql::view_query;

    #[test]
    fn the_query_of_a_create_view_is_what_follows_its_as() {
        assert_eq!(
            view_query("CREATE VIEW v AS SELECT name FROM person"),
            Some("SELECT name FROM person")
        );
        assert_eq!(
            view_query("CREATE VIEW \"as\"(a, b)\n  AS\n SELECT 'é' AS a, 2 AS b"),
            Some("SELECT 'é' AS a, 2 AS b")
        );
        assert_eq!(view_query("CREATE VIEW v"), None);
    }
}
