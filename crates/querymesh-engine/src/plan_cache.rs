//! Planning a statement for a session, and the plans an engine remembers: parsing and
//! analysis cost more than a small query, so the same text under the same session defaults
//! shares one [`Prepared`].

use std::sync::{Arc, MutexGuard};

use super::access::Viewer;
use super::{Engine, Prepared, SessionContext, TrinoError, sql};
use crate::lru::Lru;

/// How many analysed statements an engine remembers, the least recently used forgotten first.
pub const PLAN_CACHE_SIZE: usize = 256;
/// Longer query texts are planned every time, so the cache stays a few megabytes at most.
pub const PLAN_CACHE_MAX_SQL_BYTES: usize = 16 * 1024;

/// Everything a plan depends on besides the catalogs, which never change while an engine
/// runs: the text, the session's default catalog and schema, and who is looking when access
/// rules shape the answer (SHOW and information_schema list only what the viewer may see, and
/// the first matching rule's row filters and column masks are part of the plan, and so are
/// those of the environment users their expressions run as, with those users' access checks;
/// all follow from the name, the groups and the rules, see [`Viewer::key`]). Whether the
/// principal may read the tables a plan reads is not part of it: the server checks
/// [`Prepared::reads`] against the rules for every request, cached plan or not. Refusals are
/// not cached, so a hit gives exactly what analysing again would.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct PlanKey {
    sql: String,
    catalog: Option<String>,
    schema: Option<String>,
    /// SHOW SESSION answers with them.
    properties: Vec<(String, String)>,
    /// `current_user` is a constant of the plan.
    user: Option<String>,
    /// So is `current_groups()`.
    groups: Vec<String>,
    viewer: Option<String>,
    /// The session time zone is a constant of the plan (casts, current_timestamp).
    time_zone: Option<String>,
}

impl Engine {
    /// Analyses and translates `sql` for a session, or hands out the plan made for the same
    /// text and session defaults before: parsing and analysis cost more than a small query.
    pub fn prepare(&self, sql: &str, ctx: &SessionContext) -> Result<Arc<Prepared>, TrinoError> {
        if sql.len() > PLAN_CACHE_MAX_SQL_BYTES {
            let runs_under = sql::statement_session(sql, ctx);
            let limit = sql::session::time_limit(runs_under.as_ref().unwrap_or(ctx));
            return sql::plan(&self.catalogs, sql, ctx).map(|plan| {
                Arc::new(Prepared::new(plan, Some(self.budget.clone())).with_time_limit(limit))
            });
        }
        let key = PlanKey {
            sql: sql.to_string(),
            catalog: ctx.catalog.clone(),
            schema: ctx.schema.clone(),
            properties: ctx.properties.clone(),
            user: ctx.user.clone(),
            groups: ctx.groups.clone(),
            viewer: ctx.viewer.as_ref().map(Viewer::key),
            time_zone: ctx.time_zone.clone(),
        };
        if let Some(hit) = self.plans().get(&key) {
            return Ok(hit.clone());
        }
        let plan = sql::plan(&self.catalogs, sql, ctx)?;
        // `WITH SESSION query_max_run_time = …` limits this statement.
        let runs_under = sql::statement_session(sql, ctx);
        let prepared = Arc::new(
            Prepared::new(plan, Some(self.budget.clone()))
                .with_time_limit(sql::session::time_limit(runs_under.as_ref().unwrap_or(ctx))),
        );
        self.plans().insert(key, prepared.clone());
        Ok(prepared)
    }

    /// `DESCRIBE OUTPUT` or `DESCRIBE INPUT` of a prepared statement's text
    /// (sql/describe.rs); never cached, as a client describes a statement once.
    pub fn describe(
        &self,
        statement: &str,
        described: sql::describe::Described,
        ctx: &SessionContext,
    ) -> Result<Arc<Prepared>, TrinoError> {
        let plan = sql::describe::describe(&self.catalogs, statement, ctx, described)?;
        Ok(Arc::new(Prepared::new(plan, Some(self.budget.clone()))))
    }

    pub(super) fn plans(&self) -> MutexGuard<'_, Lru<PlanKey, Arc<Prepared>>> {
        // The cache holds only finished plans: one left by a panicking thread is still sound.
        self.plans.lock().unwrap_or_else(|p| p.into_inner())
    }
}
