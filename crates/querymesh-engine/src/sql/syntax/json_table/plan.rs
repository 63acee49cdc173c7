//! JSON_TABLE's names and plan, checked as Trino 476's analysis checks them (docs
//! functions/json "json_table"; TestJsonTable): column and path names unique, every path
//! named under a specific PLAN, and the plan naming each level's paths once; the default plan
//! (`PLAN DEFAULT (OUTER, UNION)` unless written) built over the levels.

use querymesh_functions::json::table::Plan;

use super::Gathered;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::syntax::token::located;

/// A specific plan as written.
pub(super) enum PlanText {
    Leaf(String, Option<Position>),
    Join(String, Option<Position>, bool, Box<PlanText>),
    Union(Vec<PlanText>),
    Cross(Vec<PlanText>),
}

/// The names' uniqueness, then the plan (a specific one checked against the levels, or the
/// default one built), as Trino 476's analysis checks them.
pub(super) fn check(
    g: &Gathered,
    plan: Option<&PlanText>,
    default: (bool, bool),
    default_written: bool,
) -> Result<Plan, TrinoError> {
    for (i, (name, place)) in g.names.iter().enumerate() {
        if g.names[..i].iter().any(|(n, _)| n == name) {
            return Err(error_at(
                ErrorName::DuplicateColumnOrPathName,
                *place,
                "All column and path names in JSON_TABLE invocation must be unique",
            ));
        }
    }
    let Some(plan) = plan else {
        // A written PLAN DEFAULT needs its nested paths named (Trino 476: "All nested JSON
        // paths must be named when default plan is given").
        if default_written && let Some(unnamed) = g.levels.iter().skip(1).find(|l| l.name.is_none())
        {
            return Err(error_at(
                ErrorName::MissingPathName,
                located(&unnamed.path),
                "All nested JSON paths must be named when default plan is given",
            ));
        }
        return Ok(default_plan(g, 0, default));
    };
    if let Some(unnamed) = g.levels.iter().find(|l| l.name.is_none()) {
        return Err(error_at(
            ErrorName::MissingPathName,
            located(&unnamed.path),
            "All JSON paths must be named when specific plan is given",
        ));
    }
    checked_plan(g, 0, plan)
}

fn default_plan(g: &Gathered, level: usize, (outer, cross): (bool, bool)) -> Plan {
    let children = g.levels.get(level).map_or(&[][..], |l| &l.children[..]);
    if children.is_empty() {
        return Plan::Leaf(level);
    }
    let mut plans: Vec<Plan> = children
        .iter()
        .map(|&c| default_plan(g, c, (outer, cross)))
        .collect();
    let child = if plans.len() == 1 {
        plans.remove(0)
    } else if cross {
        Plan::Cross(plans)
    } else {
        Plan::Union(plans)
    };
    Plan::Join {
        level,
        outer,
        child: Box::new(child),
    }
}

fn level_name(g: &Gathered, level: usize) -> String {
    g.levels
        .get(level)
        .and_then(|l| l.name.as_ref())
        .map(|(n, _)| n.clone())
        .unwrap_or_default()
}

fn invalid_plan(place: Option<Position>, text: String) -> TrinoError {
    error_at(ErrorName::InvalidPlan, place, text)
}

fn not_included(place: Option<Position>, names: &[String]) -> TrinoError {
    invalid_plan(
        place,
        format!(
            "JSON_TABLE plan should contain all JSON paths available at each level of nesting. \
             Paths not included: {}",
            names.join(", ")
        ),
    )
}

/// The plan of level `level` (whose path the plan must name at its top).
fn checked_plan(g: &Gathered, level: usize, plan: &PlanText) -> Result<Plan, TrinoError> {
    let name = level_name(g, level);
    let children = g.levels.get(level).map_or(&[][..], |l| &l.children[..]);
    match plan {
        PlanText::Leaf(n, place) if *n == name => {
            if children.is_empty() {
                return Ok(Plan::Leaf(level));
            }
            let missing: Vec<String> = children.iter().map(|&c| level_name(g, c)).collect();
            Err(not_included(*place, &missing))
        }
        PlanText::Join(n, place, outer, child) if *n == name => {
            let child = checked_siblings(g, children, child, *place)?;
            Ok(Plan::Join {
                level,
                outer: *outer,
                child: Box::new(child),
            })
        }
        PlanText::Leaf(_, place) | PlanText::Join(_, place, ..) => {
            Err(not_included(*place, &[name]))
        }
        PlanText::Union(_) | PlanText::Cross(_) => Err(not_included(None, &[name])),
    }
}

/// The names a sibling plan mentions at its own level, in order.
fn sibling_names(plan: &PlanText, out: &mut Vec<(String, Option<Position>)>) {
    match plan {
        PlanText::Leaf(n, p) | PlanText::Join(n, p, ..) => out.push((n.clone(), *p)),
        PlanText::Union(members) | PlanText::Cross(members) => {
            for m in members {
                sibling_names(m, out);
            }
        }
    }
}

/// The plan joining the children `children` of a level.
fn checked_siblings(
    g: &Gathered,
    children: &[usize],
    plan: &PlanText,
    place: Option<Position>,
) -> Result<Plan, TrinoError> {
    let mut mentioned = Vec::new();
    sibling_names(plan, &mut mentioned);
    for (i, (n, p)) in mentioned.iter().enumerate() {
        if mentioned[..i].iter().any(|(m, _)| m == n) {
            return Err(invalid_plan(
                *p,
                format!("Duplicate reference to JSON path name in sibling plan: {n}"),
            ));
        }
    }
    let missing: Vec<String> = children
        .iter()
        .map(|&c| level_name(g, c))
        .filter(|c| !mentioned.iter().any(|(m, _)| m == c))
        .collect();
    if !missing.is_empty() {
        return Err(not_included(place, &missing));
    }
    let unavailable: Vec<String> = mentioned
        .iter()
        .filter(|(m, _)| !children.iter().any(|&c| level_name(g, c) == *m))
        .map(|(m, _)| m.clone())
        .collect();
    if !unavailable.is_empty() {
        return Err(invalid_plan(
            place,
            format!(
                "JSON_TABLE plan includes unavailable JSON path names: {}",
                unavailable.join(", ")
            ),
        ));
    }
    sibling_plan(g, children, plan)
}

fn sibling_plan(g: &Gathered, children: &[usize], plan: &PlanText) -> Result<Plan, TrinoError> {
    match plan {
        PlanText::Leaf(n, _) | PlanText::Join(n, ..) => {
            let level = children
                .iter()
                .copied()
                .find(|&c| level_name(g, c) == *n)
                .unwrap_or_default();
            checked_plan(g, level, plan)
        }
        PlanText::Union(members) => Ok(Plan::Union(
            members
                .iter()
                .map(|m| sibling_plan(g, children, m))
                .collect::<Result<_, _>>()?,
        )),
        PlanText::Cross(members) => Ok(Plan::Cross(
            members
                .iter()
                .map(|m| sibling_plan(g, children, m))
                .collect::<Result<_, _>>()?,
        )),
    }
}
