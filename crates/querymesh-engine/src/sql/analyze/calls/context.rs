//! The analyser as a lowering sees it: [`LowerContext`], each method the analysis's own rule.

use querymesh_functions::context::LowerContext;
use querymesh_values::typed::Typed;

use crate::error::{Position, TrinoError};
use crate::sql::analyze::Analyzer;
use crate::types::TrinoType;

impl LowerContext for Analyzer<'_> {
    fn current_user(&self) -> Option<&str> {
        self.session.user.as_deref()
    }

    fn current_groups(&self) -> Vec<String> {
        let mut groups = self.session.groups.clone();
        groups.sort();
        groups.dedup();
        groups
    }

    fn current_catalog(&self) -> Option<&str> {
        self.session.catalog.as_deref()
    }

    fn current_schema(&self) -> Option<&str> {
        self.session.schema.as_deref()
    }

    fn alias(&mut self, prefix: &str) -> String {
        Analyzer::alias(self, prefix)
    }

    fn session_zone(&self) -> String {
        Analyzer::session_zone(self)
    }

    fn wall_time(&self, t: &Typed) -> Typed {
        Analyzer::wall_time(self, t)
    }

    fn zoned(&self, t: &Typed) -> Option<Typed> {
        Analyzer::zoned(self, t)
    }

    fn zoned_operands(&self, l: Typed, r: Typed) -> (Typed, Typed) {
        Analyzer::zoned_operands(self, l, r)
    }

    fn check_zone_literal(&self, zone: &Typed, at: Option<Position>) -> Result<(), TrinoError> {
        Analyzer::check_zone_literal(self, zone, at)
    }

    fn cast(
        &mut self,
        t: Typed,
        target: &TrinoType,
        try_cast: bool,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        Analyzer::cast(self, t, target, try_cast, at)
    }

    fn coerce_to(
        &mut self,
        t: Typed,
        target: &TrinoType,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        Analyzer::coerce_to(self, t, target, at)
    }

    fn arithmetic(
        &mut self,
        op: char,
        l: Typed,
        r: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        Analyzer::numeric_op(self, op, l, r, at)
    }

    fn date_part(
        &mut self,
        unit: &str,
        t: Typed,
        at: Option<Position>,
    ) -> Result<Typed, TrinoError> {
        Analyzer::date_part(self, unit, t, at)
    }
}
