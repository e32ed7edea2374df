//! Reports and the CI gate: one [`Report`] model of a run, rendered for people and
//! machines, and the [`gate`] that judges a run against a recorded baseline.
//!
//! [`Report::build`] turns a corpus and a [`reptest_core::runner::Run`] into a self-contained
//! model: the implementations with their versions, every case with its body in visible
//! notation, every outcome, and the scores (per implementation, level and profile over
//! the decided queries; per requirement ID; the choices where either verdict conforms;
//! the failures grouped by root cause; pairwise agreement). The model serializes as the
//! JSON report; [`markdown`] renders it deterministically for `reports/` (snapshot-tested),
//! and [`html`] renders it as one self-contained page.
//!
//! Every other human or machine output of the command line is rendered here too, the
//! command line parsing arguments, running and printing: [`run`] (`reptest run`'s
//! summary and matrix), [`folder`] (`reptest report`'s files), [`impls`] (`reptest
//! impls`' table and JSON), [`check`] (`reptest check`'s explained verdict), [`corpus`]
//! (`reptest corpus`' statistics, cases and export; [`figures`], README's figures), [`fuzz`] (`reptest fuzz`'s summary
//! and JSON), [`policy`] (`reptest policy`'s text, JUnit and GitHub reports) and the
//! gate's ([`gate`]). The JUnit and GitHub Actions formats have one writer each,
//! [`junit`] and [`github`].
//!
//! A survey's outputs are rendered here as well, from the survey crate's model: [`survey`]
//! (`survey.json`, `README.md`, `survey.html` and what `reptest survey` says). Every
//! renderer escapes, counts and colours with the same [`pieces`].

#![deny(missing_docs)]

mod access;
mod build;
pub mod check;
pub mod corpus;
mod crawl_html;
mod crawl_markdown;
mod crawl_view;
pub mod figures;
pub mod folder;
pub mod fuzz;
pub mod gate;
pub mod github;
pub mod html;
pub mod impls;
pub mod junit;
pub mod markdown;
mod model;
pub mod pieces;
pub mod policy;
pub mod run;
pub mod survey;
pub mod upstream;

pub use access::{AccessCell, AccessRow, AccessView};
pub use crawl_view::{AccessTopic, Broken, CrawlerRow, CrawlerView, TopicCell};
pub use model::{
    pinned_name, Agreement, CaseEntry, CauseEntry, CauseKind, Cell, FailureCauses, ImplEntry,
    ImplScore, LatestAnswer, LevelTally, Meta, QueryEntry, QuestionAnswer, QuestionEntry,
    QuestionVerdict, Report, RequirementEntry, RequirementScore, SlowCase, UpstreamThread,
    FORMAT_VERSION, LATEST_SUFFIX, SLOWEST_CASES,
};
