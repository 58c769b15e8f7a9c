#include "detail/page_template.hpp"

namespace playtest::report::detail {

// Styles, markup and the one small script of the page. The Content-Security-Policy forbids every
// fetch (default-src 'none'), so the page cannot load anything from the network even by mistake.
const std::string& page_template() {
  static const std::string t = R"PAGE(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="generator" content="playtest {{version}}">
<title>{{title}}</title>
<style>
:root { --pass:#1a7f37; --fail:#cf222e; --inconclusive:#9a6700; --error:#8250df; --none:#57606a;
        --ink:#1f2328; --muted:#59636e; --line:#d1d9e0; --soft:#f6f8fa; --accent:#0969da; }
* { box-sizing: border-box; }
body { margin:0; color:var(--ink); background:#fff; font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif; }
code, .mono, table.steps td.what, table.steps td.allowed { font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace; font-size:12.5px; }
.wrap { max-width:1280px; margin:0 auto; padding:0 24px; }
header.top { border-bottom:1px solid var(--line); background:var(--soft); border-top:6px solid var(--none); }
header.top.pass { border-top-color:var(--pass); } header.top.fail { border-top-color:var(--fail); }
header.top.inconclusive { border-top-color:var(--inconclusive); } header.top.error { border-top-color:var(--error); }
header .brand { padding-top:14px; color:var(--muted); font-size:12px; letter-spacing:.08em; text-transform:uppercase; }
header h1 { margin:2px 0 6px; font-size:22px; font-weight:600; word-break:break-all; }
.headline { font-size:17px; margin-bottom:10px; }
.facts { display:flex; flex-wrap:wrap; gap:6px 28px; padding-bottom:14px; color:var(--muted); }
.facts b { color:var(--ink); font-weight:600; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; color:#fff; font-size:12px; font-weight:600; letter-spacing:.03em; background:var(--none); vertical-align:1px; }
.badge.pass { background:var(--pass); } .badge.fail { background:var(--fail); }
.badge.inconclusive { background:var(--inconclusive); } .badge.error { background:var(--error); }
nav.toc { display:flex; flex-wrap:wrap; gap:4px 18px; padding:10px 0; border-bottom:1px solid var(--line); }
nav.toc a { color:var(--accent); text-decoration:none; } nav.toc a:hover { text-decoration:underline; }
section { padding:10px 0 18px; border-bottom:1px solid var(--line); }
h2 { font-size:18px; margin:12px 0 8px; font-weight:600; }
h3 { font-size:15px; margin:14px 0 6px; font-weight:600; }
p { margin:6px 0; }
.muted { color:var(--muted); }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:4px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { background:var(--soft); font-weight:600; font-size:12.5px; color:var(--muted); position:sticky; top:0; z-index:1; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
table.runs td.why { max-width:520px; }
tr.replay td { border-bottom:1px solid var(--line); padding-top:0; }
tr.main td { border-bottom:none; }
code.cmd { background:var(--soft); border:1px solid var(--line); border-radius:4px; padding:1px 6px; user-select:all; overflow-wrap:anywhere; line-height:1.8; -webkit-box-decoration-break:clone; box-decoration-break:clone; }
.replay-line { margin:8px 0; }
.explain { font-size:15px; }
.explain .got { color:var(--fail); font-weight:600; }
.split { display:flex; gap:18px; align-items:flex-start; flex-wrap:wrap; }
.split > figure { flex:3 1 640px; min-width:320px; }
.split > .steps { flex:2 1 440px; max-height:78vh; overflow:auto; border:1px solid var(--line); border-radius:6px; }
figure { margin:8px 0; }
figure.picture { border:1px solid var(--line); border-radius:6px; padding:8px; overflow:auto; max-height:80vh; background:#fff; }
figure.picture svg { max-width:100%; height:auto; display:block; margin:0 auto; cursor:zoom-in; }
figure.picture.full svg { max-width:none; cursor:zoom-out; }
figcaption { color:var(--muted); font-size:12.5px; margin-top:6px; }
.nopic { background:#fff8c5; border:1px solid #d4a72c66; border-radius:6px; padding:10px 12px; margin:8px 0; }
.legend { display:flex; flex-wrap:wrap; gap:4px 16px; margin:6px 0; color:var(--muted); font-size:12.5px; }
.legend i { display:inline-block; width:26px; height:0; border-top:3px solid; vertical-align:middle; margin-right:6px; }
.legend i.dashed { border-top-style:dashed; }
table.steps td { padding:2px 8px; }
table.steps tr.failing td { background:#ffebe9; }
table.steps td.what .changes { color:#0550ae; font-size:11.5px; }
table.steps td.what span.v[title] { text-decoration:underline dotted; cursor:help; }
table.steps tr.on-path td:first-child { box-shadow:inset 3px 0 0 var(--fail); }
table.steps tr[data-edge]:hover td { background:#fff8c5; cursor:default; }
.kind { display:inline-block; min-width:86px; font-size:12px; }
.k-stimulus { color:#0550ae; } .k-observation { color:#116329; } .k-timeout { color:#7d4e00; }
.k-reset { color:var(--muted); } .k-unexpected, .k-silence { color:var(--fail); font-weight:600; } .k-wait { color:#6639ba; }
.arrow { color:var(--muted); }
.lbl { font-weight:600; }
details { margin:6px 0; } details > summary { cursor:pointer; padding:4px 0; }
details .steps { max-height:60vh; overflow:auto; border:1px solid var(--line); border-radius:6px; }
svg .hl path, svg .hl polygon { stroke:#ffbf00 !important; stroke-width:5px; }
svg.plot { max-width:100%; height:auto; font-family:inherit; }
svg.plot .grid { stroke:#eaeef2; } svg.plot .frame { fill:none; stroke:var(--line); }
svg.plot .tick, svg.plot .legend, svg.plot .row-note, svg.plot .empty { font-size:11px; fill:var(--muted); }
svg.plot .axis { font-size:12px; fill:var(--muted); } svg.plot .plot-title { font-size:13px; font-weight:600; fill:var(--ink); }
svg.plot .row-name { font-size:12.5px; fill:var(--ink); font-weight:600; }
svg.plot .baseline { stroke:var(--line); } svg.plot .mean { stroke:var(--ink); stroke-width:2; }
td.killed { color:var(--pass); font-weight:600; } td.survived { color:var(--muted); }
.notes { color:var(--inconclusive); }
footer { color:var(--muted); font-size:12px; padding:18px 0 30px; }
</style>
</head>
<body>
<header class="top {{overall_class}}">
<div class="wrap">
<div class="brand">playtest report</div>
<h1>{{title}}</h1>
<div class="headline" id="verdict">{{#has_overall}}<span class="badge {{overall_class}}">{{overall}}</span> {{/has_overall}}{{headline}}</div>
<div class="facts">{{#facts}}<div>{{key}} <b>{{value}}</b></div>{{/facts}}</div>
</div>
</header>
<main class="wrap">
<nav class="toc">{{#toc}}<a href="#{{target}}">{{text}}</a>{{/toc}}</nav>
{{#has_runs}}
<section id="runs">
<h2>Runs</h2>
<table class="runs">
<thead><tr><th>run</th><th>verdict</th><th class="num">steps</th><th class="num">resets</th><th class="num">time</th><th class="num">seed</th><th>strategy</th><th>why</th></tr></thead>
<tbody>
{{#runs}}<tr class="main"><td><a href="#{{anchor}}">{{name}}</a></td><td><span class="badge {{verdict_class}}">{{verdict}}</span></td><td class="num">{{steps}}</td><td class="num">{{resets}}</td><td class="num">{{time}}</td><td class="num">{{seed}}</td><td>{{strategy}}</td><td class="why">{{message}}{{#run_notes}}<div class="notes">{{note}}</div>{{/run_notes}}</td></tr>
<tr class="replay"><td></td><td colspan="7"><span class="muted">replay:</span> {{#has_replay}}<code class="cmd">{{replay}}</code>{{/has_replay}}{{^has_replay}}<span class="muted">{{replay_hint}}</span>{{/has_replay}}</td></tr>
{{/runs}}
</tbody>
</table>
</section>
{{/has_runs}}
{{#failures}}
<section class="failure" id="{{anchor}}">
<h2><span class="badge {{verdict_class}}">{{verdict}}</span> {{name}}</h2>
<p class="explain">{{explain_head}}{{#has_got}} <span class="got">{{got}}</span>{{/has_got}}{{explain_tail}}</p>
<div class="replay-line"><span class="muted">replay:</span> {{#has_replay}}<code class="cmd">{{replay}}</code>{{/has_replay}}{{^has_replay}}<span class="muted">{{replay_hint}}</span>{{/has_replay}}</div>
<div class="split">
<figure class="picture" data-picture="{{anchor}}">{{{picture}}}{{#has_picture_message}}<p class="nopic">{{picture_message}}</p>{{/has_picture_message}}<figcaption>{{caption}}</figcaption></figure>
<div class="steps">{{{steps_html}}}</div>
</div>
</section>
{{/failures}}
{{#has_model}}
<section id="model">
<h2>Model and coverage</h2>
{{#has_model_part}}<p class="nopic">{{model_part}}</p>{{/has_model_part}}
<p>{{model_summary}}</p>
<p>{{coverage_summary}}</p>
{{#has_legend}}<div class="legend">{{#legend}}<span><i class="{{dash}}" style="border-top-color:{{color}}"></i>{{text}}</span>{{/legend}}</div>{{/has_legend}}
{{#has_model_picture}}<figure class="picture" id="model-picture">{{{model_picture}}}<figcaption>{{model_fallback}} Active vertices (the tester moves) are ellipses, choice points (the system moves) diamonds, goals doubled, the initial vertex bold; each edge shows its label and how often the runs took it (×N). Click the picture to zoom.</figcaption></figure>{{/has_model_picture}}
{{#has_model_message}}<p class="nopic">{{model_message}}</p>{{/has_model_message}}
{{#has_state_table}}
<h3 id="states">Vertices drawn by number ({{state_count}})</h3>
<p>The picture names the model's states by number; here is each one's full state (also its tooltip).</p>
<table class="uncovered states">
<thead><tr><th>vertex</th><th>kind</th><th>state</th></tr></thead>
<tbody>
{{#state_table}}<tr id="{{anchor}}"><td class="mono">{{short}}</td><td class="muted">{{kind}}</td><td class="mono">{{state}}</td></tr>
{{/state_table}}
</tbody>
</table>
{{/has_state_table}}
{{#has_stops}}
<h3 id="stops">Runs stopped because continuing was futile</h3>
<p>What their purpose still asked for lay only behind these outcomes: each was never seen at its vertex, and a rate above the floor (<code>--rare-rate</code>) was ruled out there and in every history of the last edges the run could offer. Each claim is said once, with the runs it concerns.</p>
<table class="uncovered stops">
<thead><tr><th>claim</th><th>runs</th><th class="num">edges behind</th></tr></thead>
<tbody>
{{#stops}}<tr><td>{{text}}</td><td class="mono">{{runs}}</td><td class="num">{{behind}}</td></tr>
{{/stops}}
</tbody>
</table>
{{/has_stops}}
{{#has_slack}}
<h3 id="slack">Model slack: outcomes the model allows that the system never showed ({{slack_count}})</h3>
<p>A finding about the model, not a failure of the system: a model that allows more than the system does hides bugs behind outcomes that never come. Each claim says what these traces prove, and the rate it rules out comes from the visits, not from the model's probabilities. {{slack_more}}</p>
{{#has_never}}
<h4>Never chosen at the vertex ({{never_count}}){{#has_model_picture}}: drawn purple and dashed{{/has_model_picture}}</h4>
<table class="uncovered slack">
<thead><tr><th>outcome</th><th>at vertex</th><th class="num">visits</th><th class="num">histories</th><th class="num">rate ruled out above</th><th>claim</th></tr></thead>
<tbody>
{{#never}}<tr><td class="mono">{{label}}</td><td class="mono">{{vertex}}</td><td class="num">{{visits}}</td><td class="num">{{histories}}</td><td class="num">{{rate}}</td><td>{{text}}</td></tr>
{{/never}}
</tbody>
</table>
{{/has_never}}
{{#has_some}}
<h4>Chosen, but never in some histories ({{some_count}}){{#has_model_picture}}: drawn teal and dashed{{/has_model_picture}}</h4>
<p>These outcomes came at their vertex; what the system chose there was learned to depend on the history (a memory of earlier labels), and in the histories listed it never came. A claim about those histories, not about the vertex.</p>
<table class="uncovered slack-history">
<thead><tr><th>outcome</th><th>at vertex</th><th class="num">visits without it</th><th class="num">histories</th><th class="num">rate ruled out above</th><th>claim</th></tr></thead>
<tbody>
{{#some}}<tr><td class="mono">{{label}}</td><td class="mono">{{vertex}}</td><td class="num">{{visits}}</td><td class="num">{{histories}}</td><td class="num">{{rate}}</td><td>{{text}}</td></tr>
{{/some}}
</tbody>
</table>
{{/has_some}}
{{/has_slack}}
<h3 id="uncovered">Edges never covered ({{uncovered_count}})</h3>
{{#has_uncovered}}
<table class="uncovered">
<thead><tr><th>label</th><th>from</th><th>to</th><th>edge</th></tr></thead>
<tbody>
{{#uncovered}}<tr><td class="mono">{{label}}</td><td class="mono">{{from}}</td><td class="mono">{{to}}</td><td class="mono muted">{{edge}}</td></tr>
{{/uncovered}}
{{#has_uncovered_more}}<tr><td colspan="4" class="muted">… and {{uncovered_more}} more</td></tr>{{/has_uncovered_more}}
</tbody>
</table>
{{/has_uncovered}}
{{^has_uncovered}}<p>Every edge was taken at least once.</p>{{/has_uncovered}}
</section>
{{/has_model}}
{{^has_model}}{{#has_runs}}
<section id="model"><h2>Model and coverage</h2><p class="nopic">No model was given, so there is no picture and no coverage: write the report with <code>--model MODEL</code>.</p></section>
{{/has_runs}}{{/has_model}}
{{#simulation}}
<section id="simulate">
<h2>Strategies compared</h2>
<p>Every strategy played {{runs_text}} against the same simulated systems (seed {{seed}}, at most {{max_steps}} steps per run){{#one_purpose}}, measured on the purpose <b>{{purpose}}</b>{{/one_purpose}}{{^one_purpose}}; each row says which purpose it was measured on{{/one_purpose}}.</p>
<table class="strategies">
<thead><tr><th>strategy</th><th>purpose</th><th class="num">runs</th><th class="num">success</th><th class="num">mean steps</th><th class="num">sd</th><th class="num">PASS</th><th class="num">FAIL</th><th class="num">INC</th><th class="num">ERR</th>{{#has_mutants}}<th class="num">mutants detected</th><th class="num">steps to detect</th>{{/has_mutants}}</tr></thead>
<tbody>
{{#rows}}<tr><td><b>{{strategy}}</b></td><td>{{row_purpose}}</td><td class="num">{{runs}}</td><td class="num">{{success}}</td><td class="num">{{mean}}</td><td class="num">{{sd}}</td><td class="num">{{passed}}</td><td class="num">{{failed}}</td><td class="num">{{inconclusive}}</td><td class="num">{{errors}}</td>{{#has_mutants}}<td class="num">{{detected}}</td><td class="num">{{detect_steps}}</td>{{/has_mutants}}</tr>
{{/rows}}
</tbody>
</table>
{{#has_histograms}}<figure>{{{histograms}}}<figcaption>Steps needed to meet the purpose, one histogram per strategy on a common axis (runs that met it); the dark line is the mean.</figcaption></figure>{{/has_histograms}}
{{#has_mutant_table}}
<h3>Mutants</h3>
<p class="muted">A mutant is detected (killed) by a strategy when one of its runs against it ends in FAIL; A mutant no strategy detects may be equivalent to the model.</p>
<table class="mutants">
<thead><tr><th>mutant</th>{{#mutant_heads}}<th class="num">{{head}}</th>{{/mutant_heads}}</tr></thead>
<tbody>
{{#mutant_rows}}<tr><td>{{description}}</td>{{#cells}}<td class="num {{cell_class}}">{{cell}}</td>{{/cells}}</tr>
{{/mutant_rows}}
</tbody>
</table>
{{/has_mutant_table}}
</section>
{{/simulation}}
{{#cover}}
<section id="cover">
<h2>Edge coverage: tour and convergence</h2>
<p>Chinese Postman tour of <b>{{tour_steps}}</b> steps from <span class="mono">{{start}}</span>, cost {{cost}} (lower bound {{lower_bound}}: every edge once){{#has_uncoverable}}; {{uncoverable}} edges cannot be toured{{/has_uncoverable}}. Cut at the choice points into <b>{{segments}}</b> segments.</p>
<p>{{bound_text}}</p>
{{#has_plot}}<figure>{{{plot}}}<figcaption>{{plot_caption}}</figcaption></figure>{{/has_plot}}
{{#has_cover_picture}}<figure class="picture">{{{cover_picture}}}<figcaption>{{cover_fallback}} The tour on the model: edges it takes more than once are bold (×N), edges it cannot take dashed. Click the picture to zoom.</figcaption></figure>{{/has_cover_picture}}
{{#has_cover_message}}<p class="nopic">{{cover_message}}</p>{{/has_cover_message}}
<details><summary>The tour and its segments</summary>
<p class="mono">{{tour_text}}</p>
<table><thead><tr><th>segment</th><th>edges</th></tr></thead><tbody>
{{#segment_rows}}<tr><td>{{name}}</td><td class="mono">{{edges}}</td></tr>{{/segment_rows}}
</tbody></table>
</details>
</section>
{{/cover}}
{{#solve}}
<section id="solve">
<h2>Strategy ({{objective}})</h2>
{{#summary}}<p>{{line}}</p>{{/summary}}
{{#has_solve_picture}}<figure class="picture">{{{solve_picture}}}<figcaption>{{solve_fallback}} The strategy's choices are drawn green and bold; each vertex shows its value; grey vertices cannot reach a goal the way the objective asks.</figcaption></figure>{{/has_solve_picture}}
{{#has_solve_message}}<p class="nopic">{{solve_message}}</p>{{/has_solve_message}}
</section>
{{/solve}}
{{#has_other_runs}}
<section id="other-steps">
<h2>Steps of the other runs</h2>
{{#other_runs}}<details id="{{anchor}}"><summary><span class="badge {{verdict_class}}">{{verdict}}</span> {{name}}: {{steps}} steps</summary><div class="steps">{{{steps_html}}}</div></details>
{{/other_runs}}
</section>
{{/has_other_runs}}
</main>
<footer class="wrap">Written by playtest {{version}}. This page is one self-contained file: it loads nothing from the network.</footer>
<script>
(function () {
  // Hovering a step highlights its edge on the picture beside it.
  document.querySelectorAll('tr[data-edge]').forEach(function (row) {
    var edge = document.getElementById(row.getAttribute('data-edge'));
    if (!edge) return;
    row.addEventListener('mouseenter', function () { edge.classList.add('hl'); });
    row.addEventListener('mouseleave', function () { edge.classList.remove('hl'); });
  });
  // A click on a picture switches between fitting the page and full size.
  document.querySelectorAll('figure.picture').forEach(function (fig) {
    fig.addEventListener('click', function () { fig.classList.toggle('full'); });
  });
})();
</script>
</body>
</html>
)PAGE";
  return t;
}

const std::string& steps_template() {
  static const std::string t = R"STEPS(<table class="steps">
<thead><tr><th class="num">#</th><th class="num">ms</th><th>kind</th><th>step</th><th>{{allowed_head}}</th></tr></thead>
<tbody>
{{#has_omitted}}<tr><td colspan="5" class="muted">… {{omitted}} earlier steps are not shown (the trace has them all)</td></tr>{{/has_omitted}}
{{#has_first_state}}<tr class="state0"><td colspan="5" class="muted">states by number, what each step changed below them (hover a number for its whole state); the first: <span class="mono">{{first_state}}</span></td></tr>{{/has_first_state}}
{{#rows}}<tr class="{{row_class}}"{{#has_edge_ref}} data-edge="{{edge_ref}}"{{/has_edge_ref}}><td class="num">{{step}}</td><td class="num">{{time}}</td><td><span class="kind k-{{kind}}">{{kind}}</span></td><td class="what"><span class="v"{{#has_from_title}} title="{{from_title}}"{{/has_from_title}}>{{from}}</span> <span class="arrow">{{arrow_head}}</span><span class="lbl">{{step_label}}</span><span class="arrow">{{arrow_tail}}</span> <span class="v"{{#has_to_title}} title="{{to_title}}"{{/has_to_title}}>{{to}}</span>{{#has_changes}}<div class="changes">{{changes}}</div>{{/has_changes}}</td><td class="allowed">{{allowed}}</td></tr>
{{/rows}}
</tbody>
</table>)STEPS";
  return t;
}

}  // namespace playtest::report::detail
