//! [`Viewer`]: what one person may see while exploring, as Trino's `filterCatalogs`,
//! `filterSchemas`, `filterTables` and `filterColumns` decide over the same rules that
//! [`AccessControl::check_select`] applies to queries.

use std::sync::Arc;

use super::rules::{CatalogAccess, TableRule};
use super::{AccessControl, INFORMATION_SCHEMA, TablePolicy, User};
use crate::TableAccess;
use crate::error::TrinoError;

/// What one person may see while exploring: SHOW, DESCRIBE and `information_schema` list
/// only this, as Trino's file-based system access control filters them.
#[derive(Clone)]
pub struct Viewer {
    rules: Arc<AccessControl>,
    principal: User,
}

impl std::fmt::Debug for Viewer {
    // Who is looking stays out of logs and debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Viewer(..)")
    }
}

impl Viewer {
    /// `None` when no rules are configured: everyone sees everything.
    pub fn of(rules: &Arc<AccessControl>, principal: &User) -> Option<Self> {
        let unrestricted =
            rules.catalogs.is_none() && rules.schemas.is_none() && rules.tables.is_none();
        (!unrestricted).then(|| Self {
            rules: rules.clone(),
            principal: principal.clone(),
        })
    }

    /// Tells viewers apart for caches: what they see depends on their name, their groups and
    /// the rules. The identities of `filter_environment` and `mask_environment` are names of
    /// those rules without groups ([`Viewer::as_environment_user`]), so the rules and the
    /// person decide their policies too.
    pub fn key(&self) -> String {
        let mut groups = self.principal.groups.clone();
        groups.sort();
        format!(
            "{}\n{}\n{}",
            self.rules.id,
            self.principal.name,
            groups.join("\n")
        )
    }

    /// Who the rules judge (Trino's session user).
    pub fn user_name(&self) -> &str {
        &self.principal.name
    }

    /// The identity a row filter or column mask with an environment `user` is analysed as:
    /// that user under the same rules. Trino gives it the groups its group provider knows
    /// (StatementAnalyzer.analyzeRowFilter: `Identity.forUser(filterUser).withGroups(
    /// groupProvider.getGroups(filterUser))`); QueryMesh has no group provider (its people's
    /// groups come with their tokens), as Trino without one, so it has none.
    pub fn as_environment_user(&self, user: &str) -> Self {
        Self {
            rules: self.rules.clone(),
            principal: User {
                name: user.to_string(),
                groups: Vec::new(),
            },
        }
    }

    /// [`AccessControl::check_select`] for this viewer: the tables a filter's or mask's own
    /// subqueries read are checked for the expression's identity, as Trino's Analyzer checks
    /// every identity's table references once analysis ends.
    pub fn check_select(&self, reads: &[TableAccess]) -> Result<(), TrinoError> {
        self.rules.check_select(&self.principal, reads)
    }

    fn catalog_access(&self, catalog: &str) -> CatalogAccess {
        self.rules.catalog_access(&self.principal, catalog)
    }

    /// `filterCatalogs` (and `checkCanShowSchemas`): read-only access or better. Trino also
    /// wants some rule granting anything in the catalog, which its default for the
    /// `catalog_session_properties` section (ignored here) always supplies.
    pub fn sees_catalog(&self, catalog: &str) -> bool {
        self.catalog_access(catalog) >= CatalogAccess::ReadOnly
    }

    /// `filterSchemas` (and `checkCanShowTables`): the catalog readable and some schema rule
    /// making the person an owner, or some table rule granting any privilege, in the schema.
    pub fn sees_schema(&self, catalog: &str, schema: &str) -> bool {
        if !self.sees_catalog(catalog) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        let p = &self.principal;
        let owner_somewhere = self.rules.schemas.as_ref().is_none_or(|rules| {
            rules
                .iter()
                .any(|r| r.owner && r.scope.applies_to(p, catalog, schema))
        });
        let granted_somewhere = self.rules.tables.as_ref().is_none_or(|rules| {
            rules
                .iter()
                .any(|r| r.any_privilege && r.scope.applies_to(p, catalog, schema))
        });
        owner_somewhere || granted_somewhere
    }

    /// Trino's `isSchemaOwner`: catalog access `all` and the first matching schema rule.
    fn owns_schema(&self, catalog: &str, schema: &str) -> bool {
        if self.catalog_access(catalog) < CatalogAccess::All {
            return false;
        }
        match &self.rules.schemas {
            None => true,
            Some(rules) => rules
                .iter()
                .find(|r| r.scope.applies_to(&self.principal, catalog, schema))
                .is_some_and(|r| r.owner),
        }
    }

    /// The first table rule matching, or `Ok(None)` when there are no table rules (all
    /// privileges); `Err(())` when none matches (no privilege).
    fn table_rule(
        &self,
        catalog: &str,
        schema: &str,
        table: &str,
    ) -> Result<Option<&TableRule>, ()> {
        match &self.rules.tables {
            None => Ok(None),
            Some(rules) => rules
                .iter()
                .find(|r| r.matches(&self.principal, catalog, schema, table))
                .map(Some)
                .ok_or(()),
        }
    }

    /// The row filter and column masks of the first table rule matching (Trino's
    /// `getRowFilters` / `getColumnMasks`); never for information_schema.
    pub fn table_policy(
        &self,
        catalog: &str,
        schema: &str,
        table: &str,
    ) -> Option<TablePolicy<'_>> {
        if schema == INFORMATION_SCHEMA {
            return None;
        }
        self.table_rule(catalog, schema, table)
            .ok()
            .flatten()
            .and_then(TableRule::policy)
    }

    /// `checkCanShowCreateTable`: OWNERSHIP of the table (Trino's `checkTablePermission`:
    /// information_schema always, else a readable catalog and the first matching rule).
    pub fn may_show_create_table(&self, catalog: &str, schema: &str, table: &str) -> bool {
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        if !self.sees_catalog(catalog) {
            return false;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => rule.ownership,
            Err(()) => false,
        }
    }

    /// `checkCanShowCreateSchema`: the schema's owner.
    pub fn may_show_create_schema(&self, catalog: &str, schema: &str) -> bool {
        self.owns_schema(catalog, schema)
    }

    /// `checkCanShowColumns` (SHOW COLUMNS, DESCRIBE): any privilege on the table.
    pub fn may_show_columns(&self, catalog: &str, schema: &str, table: &str) -> bool {
        self.any_table_privilege(catalog, schema, table)
    }

    /// Trino's `checkAnyTablePermission`: catalog readable and any privilege on the table.
    fn any_table_privilege(&self, catalog: &str, schema: &str, table: &str) -> bool {
        if !self.sees_catalog(catalog) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => rule.any_privilege,
            Err(()) => false,
        }
    }

    /// Trino's `checkTablePermission` for a change to the table (DROP, INSERT, DELETE, ALTER):
    /// catalog access `all` and the first matching rule granting a privilege beyond SELECT.
    /// The stand-in's data stays read-only whatever this says: it only decides whether the
    /// person is told "Access Denied" or the connector's "does not support".
    pub fn may_change_table(&self, catalog: &str, schema: &str, table: &str) -> bool {
        if self.catalog_access(catalog) < CatalogAccess::All {
            return false;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => rule.beyond_select,
            Err(()) => false,
        }
    }

    /// Trino's `checkCanCreateTable`, `checkCanDropSchema`, …: the schema's owner.
    pub fn may_change_schema(&self, catalog: &str, schema: &str) -> bool {
        self.owns_schema(catalog, schema)
    }

    /// `filterTables` (and `checkCanShowColumns`): the schema's owner, or any privilege on it.
    pub fn sees_table(&self, catalog: &str, schema: &str, table: &str) -> bool {
        self.owns_schema(catalog, schema) || self.any_table_privilege(catalog, schema, table)
    }

    /// `filterColumns`: none without any privilege on the table; all with a privilege beyond
    /// SELECT; otherwise all but the columns with `allow: false`.
    pub fn sees_column(&self, catalog: &str, schema: &str, table: &str, column: &str) -> bool {
        if !self.any_table_privilege(catalog, schema, table) {
            return false;
        }
        if schema == INFORMATION_SCHEMA {
            return true;
        }
        match self.table_rule(catalog, schema, table) {
            Ok(None) => true,
            Ok(Some(rule)) => {
                rule.beyond_select
                    || !rule
                        .denied_columns
                        .iter()
                        .any(|d| d.eq_ignore_ascii_case(column))
            }
            Err(()) => false,
        }
    }
}
