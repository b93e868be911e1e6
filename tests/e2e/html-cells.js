// What tests/e2e/html.bats compares with report --format json: the cells
// of report --format html's tables, read from the DOM the browser built.
// One expression (browse.py evaluates it in the page).
(() => {
	const text = (e) => (e ? e.textContent.trim() : null);
	const num = (e) => (e ? Number(text(e)) : null);
	const all = (sel, root) => [...(root || document).querySelectorAll(sel)];
	const chips = (sel) => all(sel + " .chip").map(text);
	return {
		title: document.title,
		source: text(document.getElementById("source")),
		scripts: document.scripts.length,
		// elements that could fetch or run something
		fetchers: all("script, img, iframe, object, embed, link, [src], [href^='http']").length,
		inputs: all("#inputs tbody tr").map((tr) => ({
			file: text(tr.querySelector(".file")),
			kernel: text(tr.querySelector(".kernel")),
			attach: text(tr.querySelector(".attach")),
			command: text(tr.querySelector("code")),
			lost: num(tr.querySelector(".lost")),
		})),
		total_checks: num(document.getElementById("total-checks")),
		hidden_noaudit: num(document.getElementById("hidden-noaudit")),
		required: chips("#required"),
		denied: chips("#denied"),
		// every kind in a row when something was lost, else one line
		lost: Object.fromEntries(all("td.lost[data-key]").map((td) => [td.dataset.key, num(td)])),
		lost_line: text(document.getElementById("lost")),
		// the sections in document order, and where the first programs
		// table and the required set are in it
		sections: all("main > section").map((s) => s.id),
		required_before_programs: !!(document.getElementById("sg-required") &&
			document.querySelector("table.programs") &&
			(document.getElementById("sg-required").compareDocumentPosition(
				document.querySelector("table.programs")) &
				Node.DOCUMENT_POSITION_FOLLOWING)),
		emit: all("#answer details.emit").map((d) => ({
			kind: d.dataset.kind,
			text: d.querySelector("pre").textContent,
		})),
		// the Note cells of the programs tables, by capability
		notes: all("#images tbody.proc tr").filter((tr) => tr.querySelector("td.note")).map((tr) => ({
			cap: text(tr.querySelector("td.cap")),
			note: text(tr.querySelector("td.note")),
		})),
		processes: all("#images tbody.proc").map((tb) => ({
			pid: Number(tb.dataset.pid),
			comm: text(tb.querySelector("td.program b")),
			exe: text(tb.querySelector("td.program code")),
			caps: all("tr", tb).filter((tr) => tr.querySelector("td.cap")).map((tr) => ({
				cap: text(tr.querySelector("td.cap")),
				granted: num(tr.querySelector("td.granted")),
				denied: num(tr.querySelector("td.denied")),
			})),
		})),
		sg_required: chips("#sg-required"),
		sg_observed: chips("#sg-observed"),
		sg_denied: chips("#sg-denied"),
		sg_keep_sys_admin: all("#suggest h3").some((h) => text(h) === "CAP_SYS_ADMIN stays required"),
		denials: all("#denials tbody tr").map((tr) => ({
			cap: text(tr.querySelector(".chip")),
			callsite: text(tr.querySelector("code")),
			count: num(tr.querySelector(".count")),
		})),
		paths: all("details.cap-paths").map((d) => ({
			cap: d.dataset.cap,
			open: d.open,
			sites: all("tbody tr", d).filter((tr) => tr.querySelector("td.site")).map((tr) => ({
				function: text(tr.querySelector("td.site code")),
				granted: num(tr.querySelector("td.granted")),
				denied: num(tr.querySelector("td.denied")),
				stacks: all("details.stack", tr).length,
			})),
		})),
		// the page's height, to know the screenshot shows a filled page
		height: document.documentElement.scrollHeight,
	};
})()
