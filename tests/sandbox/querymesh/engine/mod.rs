//! The QueryMesh engine at library level: Trino SQL through `Engine::prepare` and
//! `Prepared::run` on `Engine::connect`, against tpch.tiny and the developer's catalogs.

mod clause_reading;
mod developer_sources;
mod explain;
mod exploration;
mod interruption_and_threads;
mod refusals;
mod tpch_generated;
mod tpch_queries;
mod text_with_nul_characters;
mod tpch_tables;
mod types_and_values;
