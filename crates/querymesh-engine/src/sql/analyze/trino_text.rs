//! An expression as Trino's ExpressionFormatter prints it in messages (`'(regionkey +
//! nationkey)' must be an aggregate expression …`), and where Trino's parser places its node
//! (a binary operator at the operator, a predicate at its keyword). Only the common forms:
//! `None` for any other, whose caller keeps its own wording.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments, UnaryOperator, Value,
};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::TokenWithSpan;

use super::location::{
    cast_before, location, not_before, operator_before, predicate_keyword_after, sign_before,
};
use crate::error::Position;

/// `e` as Trino prints it, if it is one of the forms printed here.
pub fn formatted(e: &Expr) -> Option<String> {
    Some(match e {
        Expr::Identifier(id) => identifier(id),
        Expr::CompoundIdentifier(parts) => {
            parts.iter().map(identifier).collect::<Vec<_>>().join(".")
        }
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) if n.contains(['e', 'E']) => return None,
            Value::Number(n, _) if n.contains('.') => format!("DECIMAL '{n}'"),
            Value::Number(n, _) => n.clone(),
            Value::SingleQuotedString(s) => format!("'{}'", s.replace('\'', "''")),
            Value::Boolean(b) => b.to_string(),
            Value::Null => "null".into(),
            _ => return None,
        },
        Expr::Nested(inner) => formatted(inner)?,
        Expr::BinaryOp { left, op, right } => {
            let (l, r) = (formatted(left)?, formatted(right)?);
            if *op == BinaryOperator::StringConcat {
                format!("concat({l}, {r})")
            } else {
                format!("({l} {} {r})", operator(op)?)
            }
        }
        Expr::UnaryOp { op, expr } => match op {
            UnaryOperator::Not => format!("(NOT {})", formatted(expr)?),
            UnaryOperator::Minus => format!("-({})", formatted(expr)?),
            _ => return None,
        },
        Expr::Cast {
            kind,
            expr,
            data_type,
            format: None,
        } => {
            let word = match kind {
                sqlparser::ast::CastKind::Cast => "CAST",
                sqlparser::ast::CastKind::TryCast => "TRY_CAST",
                _ => return None,
            };
            // Types sqlparser cannot read are marked placeholders (cast_types.rs): not printed.
            let ty = data_type.to_string().to_lowercase();
            if !ty.is_ascii() {
                return None;
            }
            format!("{word}({} AS {ty})", formatted(expr)?)
        }
        Expr::IsNull(x) => format!("({} IS NULL)", formatted(x)?),
        Expr::IsNotNull(x) => format!("({} IS NOT NULL)", formatted(x)?),
        Expr::In {
            expr,
            target: sqlparser::ast::InTarget::List(list),
            negated: false,
            ..
        } => {
            let items: Option<Vec<String>> = list.iter().map(formatted).collect();
            format!("({} IN ({}))", formatted(expr)?, items?.join(", "))
        }
        Expr::Like {
            negated: false,
            any: false,
            expr,
            pattern,
            escape_char: None,
        } => format!("({} LIKE {})", formatted(expr)?, formatted(pattern)?),
        Expr::Between {
            expr,
            negated: false,
            low,
            high,
        } => format!(
            "({} BETWEEN {} AND {})",
            formatted(expr)?,
            formatted(low)?,
            formatted(high)?
        ),
        Expr::Case {
            operand,
            conditions,
            else_result,
            ..
        } => {
            let mut text = String::from("(CASE ");
            if let Some(operand) = operand {
                text.push_str(&formatted(operand)?);
                text.push(' ');
            }
            for when in conditions {
                text.push_str(&format!(
                    "WHEN {} THEN {} ",
                    formatted(&when.condition)?,
                    formatted(&when.result)?
                ));
            }
            if let Some(otherwise) = else_result {
                text.push_str(&format!("ELSE {} ", formatted(otherwise)?));
            }
            text.push_str("END)");
            text
        }
        Expr::Function(f) => {
            if f.over.is_some() || f.filter.is_some() || !f.within_group.is_empty() {
                return None;
            }
            let FunctionArguments::List(list) = &f.args else {
                return None;
            };
            if !list.clauses.is_empty() {
                return None;
            }
            let mut args = Vec::new();
            for arg in &list.args {
                match arg {
                    FunctionArg::Unnamed(FunctionArgExpr::Expr(x)) => args.push(formatted(x)?),
                    FunctionArg::Unnamed(FunctionArgExpr::Wildcard) => args.push("*".into()),
                    _ => return None,
                }
            }
            let distinct = match list.duplicate_treatment {
                Some(sqlparser::ast::DuplicateTreatment::Distinct) => "DISTINCT ",
                _ => "",
            };
            format!("{}({distinct}{})", f.name, args.join(", "))
        }
        _ => return None,
    })
}

/// Where Trino places `e`'s node: a binary operator at its operator, IS / IN / LIKE /
/// BETWEEN at their keyword, anything else where it starts.
pub fn node_location(tokens: &[TokenWithSpan], e: &Expr) -> Option<Position> {
    let at = match e {
        Expr::Nested(inner) => return node_location(tokens, inner),
        Expr::BinaryOp { op, right, .. } => operator_before(tokens, location(&**right), op),
        Expr::IsNull(x) | Expr::IsNotNull(x) => predicate_keyword_after(tokens, x, Keyword::IS),
        Expr::In { expr, .. } => predicate_keyword_after(tokens, expr, Keyword::IN),
        Expr::Like { expr, .. } => predicate_keyword_after(tokens, expr, Keyword::LIKE),
        Expr::Between { expr, .. } => predicate_keyword_after(tokens, expr, Keyword::BETWEEN),
        Expr::UnaryOp {
            op: UnaryOperator::Minus | UnaryOperator::Plus,
            expr,
        } => sign_before(tokens, location(&**expr)),
        Expr::UnaryOp {
            op: UnaryOperator::Not,
            expr,
        } => not_before(tokens, location(&**expr)),
        Expr::Cast { expr, .. } => cast_before(tokens, location(&**expr)),
        _ => None,
    };
    at.or_else(|| location(e))
}

fn identifier(id: &sqlparser::ast::Ident) -> String {
    match id.quote_style {
        Some(_) => format!("\"{}\"", id.value.replace('"', "\"\"")),
        None => id.value.clone(),
    }
}

fn operator(op: &BinaryOperator) -> Option<&'static str> {
    Some(match op {
        BinaryOperator::Plus => "+",
        BinaryOperator::Minus => "-",
        BinaryOperator::Multiply => "*",
        BinaryOperator::Divide => "/",
        BinaryOperator::Modulo => "%",
        BinaryOperator::Eq => "=",
        BinaryOperator::NotEq => "<>",
        BinaryOperator::Lt => "<",
        BinaryOperator::LtEq => "<=",
        BinaryOperator::Gt => ">",
        BinaryOperator::GtEq => ">=",
        BinaryOperator::And => "AND",
        BinaryOperator::Or => "OR",
        _ => return None,
    })
}
