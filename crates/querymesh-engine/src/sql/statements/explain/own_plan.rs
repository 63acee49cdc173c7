//! The stand-in's own plan, for the statements whose plan Trino prints differently every
//! time or from parts the stand-in does not have (an optimizer's plan shapes, statistics of
//! joins and aggregations): the output, the tables and columns it reads and the SQLite
//! statement it runs. The text says so in its first line rather than imitate fragments.

use serde_json::json;

use super::Format;
use crate::sql::{Body, Plan};

pub(super) fn describe(plan: &Plan, format: Format) -> String {
    let sqlite = match &plan.body {
        Body::Sql(sql) | Body::Derived { sql, .. } => Some(sql.as_str()),
        Body::Rows(_) => None,
    };
    if format == Format::Json {
        return json!({
            "engine": "zero-sandbox QueryMesh stand-in (SQLite)",
            "columns": plan.columns.iter().map(|c| json!({"name": c.name, "type": c.ty.to_string()})).collect::<Vec<_>>(),
            "reads": plan.reads.iter().map(|r| json!({
                "catalog": r.catalog, "schema": r.schema, "table": r.table, "columns": r.columns,
            })).collect::<Vec<_>>(),
            "sqlite": sqlite,
        })
        .to_string();
    }
    let names: Vec<&str> = plan.columns.iter().map(|c| c.name.as_str()).collect();
    let layout: Vec<String> = plan
        .columns
        .iter()
        .map(|c| format!("{}:{}", c.name, c.ty))
        .collect();
    let mut text = format!(
        "QueryMesh stand-in plan (zero-sandbox: one SQLite statement, no distributed plan)\n\
         Output[columnNames = [{}]]\n    Layout: [{}]\n",
        names.join(", "),
        layout.join(", ")
    );
    for r in &plan.reads {
        text.push_str(&format!(
            "TableScan[table = {}:{}:{}]\n    Columns: [{}]\n",
            r.catalog,
            r.schema,
            r.table,
            r.columns.join(", ")
        ));
    }
    match sqlite {
        Some(sql) => text.push_str(&format!("SQLite:\n    {sql}\n")),
        None => text.push_str("Values (answered from the catalogs)\n"),
    }
    text
}
