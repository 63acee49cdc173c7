//! The wildcards of a select list beyond `*` (select.rs `wildcard_columns`): a row's fields,
//! `(row).*` and `t.r.*` (SqlBase.g4 `primaryExpression '.' ASTERISK`), and the alias list
//! either may take, `AS (a, b)` (`syntax/wildcard_aliases`). Trino's StatementAnalyzer
//! .analyzeSelectAllColumns: a name is a relation first; an expression must be a row.

use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Expr, SelectItem, SelectItemQualifiedWildcardKind, WildcardAdditionalOptions,
};

use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::analyze::scope::{Column, ExprContext, Scope};
use crate::sql::analyze::{Analyzer, ident_location, location, object_name_parts};
use crate::sql::syntax::wildcard_aliases;

impl Analyzer<'_> {
    /// The columns of a `(row).*` item or of `t.r.*` (a row column of relation `t`), or None
    /// for a wildcard over relations.
    pub(super) fn row_wildcard(
        &mut self,
        item: &SelectItem,
        scope: &Scope<'_>,
        cx: &ExprContext<'_>,
    ) -> Result<Option<Vec<Column>>, TrinoError> {
        let SelectItem::QualifiedWildcard(kind, _) = item else {
            return Ok(None);
        };
        let row = match kind {
            SelectItemQualifiedWildcardKind::ObjectName(name) => {
                let parts = object_name_parts(name);
                if parts.len() < 2 || scope.relation(&parts).is_some() {
                    return Ok(None);
                }
                // `t.r.*`: not a relation, so a column of one.
                let idents = name
                    .0
                    .iter()
                    .filter_map(|p| p.as_ident().cloned())
                    .collect();
                self.grouped_expr(&Expr::CompoundIdentifier(idents), cx)?
            }
            SelectItemQualifiedWildcardKind::Expr(e) => {
                let mut inner = e;
                while let Expr::Nested(x) = inner {
                    inner = x;
                }
                if let Expr::Identifier(_) | Expr::CompoundIdentifier(_) = inner {
                    // `(t).*` names a relation, as `t.*` does (the parentheses are gone in
                    // Trino's tree).
                    let name = match inner {
                        Expr::Identifier(i) => vec![i.value.to_lowercase()],
                        Expr::CompoundIdentifier(parts) => {
                            parts.iter().map(|i| i.value.to_lowercase()).collect()
                        }
                        _ => Vec::new(),
                    };
                    if let Some(relation) = scope.relation(&name) {
                        let columns = relation.columns.iter().filter(|c| !c.unlisted).cloned();
                        return Ok(Some(columns.collect()));
                    }
                    if name.len() < 2 {
                        return Err(error_at(
                            ErrorName::TableNotFound,
                            self.opening_parenthesis_before(location(inner)),
                            format!("Unable to resolve reference {}", name.join(".")),
                        ));
                    }
                }
                self.grouped_expr(e, cx)?
            }
        };
        let Some(fields) = Analyzer::row_fields(&row) else {
            let start = self.tokens.first().map(|t| Position::from(t.span.start));
            return Err(error_at(
                ErrorName::TypeMismatch,
                start,
                "expected expression of type Row",
            ));
        };
        Ok(Some(
            fields
                .into_iter()
                .map(|(name, Typed { sql, ty, .. })| Column {
                    name: name.unwrap_or_else(|| crate::sql::analyze::UNNAMED.to_string()),
                    ty,
                    sql,
                    read: None,
                    hidden: false,
                    unlisted: false,
                    planning_refusal: None,
                })
                .collect(),
        ))
    }
}

/// The names `AS (a, b)` gives a wildcard's columns, checked against how many it has: an
/// unquoted name as Trino reports it (upper-cased), a quoted one as written. None without a
/// list; any other alias after a wildcard is Trino's syntax error.
pub(super) fn wildcard_names(
    options: &WildcardAdditionalOptions,
    columns: usize,
) -> Result<Option<Vec<String>>, TrinoError> {
    let Some(alias) = &options.opt_alias else {
        return Ok(None);
    };
    let Some(names) = wildcard_aliases::aliases(&alias.value) else {
        return Err(error_at(
            ErrorName::SyntaxError,
            ident_location(alias),
            format!("mismatched input '{}'", alias.value),
        ));
    };
    if names.len() != columns {
        return Err(error_at(
            ErrorName::MismatchedColumnAliases,
            ident_location(alias),
            format!(
                "Column alias list has {} entries but relation has {columns} columns",
                names.len()
            ),
        ));
    }
    Ok(Some(
        names
            .iter()
            .map(
                |n| match n.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
                    Some(quoted) => quoted.replace("\"\"", "\""),
                    None => n.to_uppercase(),
                },
            )
            .collect(),
    ))
}
