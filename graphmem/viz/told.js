/* graphmem: the who-told-whom graph, drawn as inline SVG from the JSON in #graph-data.
 * Hover a player or an edge for details, click a player to highlight who they told and who told them (click the
 * background to clear), drag a player to move it, pick a day to filter the edges. No network access: everything
 * this page needs is in the page. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var W = 1000, H = 760, PAD = 90, R = 22;
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var style = data.style;
  var svg = document.getElementById("told");
  var tooltip = document.getElementById("tooltip");
  var daySelect = document.getElementById("day");
  var state = { day: "all", selected: null, drag: null };

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  var players = {};
  data.players.forEach(function (p) {
    p.px = PAD + p.x * (W - 2 * PAD);
    p.py = PAD + (1 - p.y) * (H - 2 * PAD);
    players[p.name] = p;
  });

  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  var defs = el("defs", {}, svg);
  Object.keys(style.kind_colours).forEach(function (kind) {
    var marker = el("marker", { id: "arrow-" + kind, viewBox: "0 0 10 10", refX: "9", refY: "5",
      markerUnits: "userSpaceOnUse", markerWidth: "17", markerHeight: "17", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: style.kind_colours[kind] }, marker);
  });
  var background = el("rect", { x: 0, y: 0, width: W, height: H, fill: "transparent", "class": "background" }, svg);
  var edgeLayer = el("g", { "class": "edges" }, svg);
  var nodeLayer = el("g", { "class": "nodes" }, svg);

  function messagesOf(edge) {
    if (state.day === "all") { return edge.messages; }
    return edge.by_day[state.day] || 0;
  }

  function width(n, most) {
    if (most <= 1) { return 1.2; }
    return 1.2 + 6 * Math.sqrt(Math.max(n - 1, 0) / (most - 1));
  }

  function geometry(edge) {
    var a = players[edge.source], b = players[edge.target];
    var dx = b.px - a.px, dy = b.py - a.py, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var bend = style.kind_curvature[edge.kind] * len;
    var cx = (a.px + b.px) / 2 - (dy / len) * bend, cy = (a.py + b.py) / 2 + (dx / len) * bend;
    function toward(px, py, qx, qy, by) {
      var ex = qx - px, ey = qy - py, l = Math.sqrt(ex * ex + ey * ey) || 1;
      return [px + ex / l * by, py + ey / l * by];
    }
    var s = toward(a.px, a.py, cx, cy, R + 2), t = toward(b.px, b.py, cx, cy, R + 6);
    return "M" + s[0].toFixed(1) + "," + s[1].toFixed(1) + " Q" + cx.toFixed(1) + "," + cy.toFixed(1) + " " +
      t[0].toFixed(1) + "," + t[1].toFixed(1);
  }

  var edgeNodes = data.edges.map(function (edge) {
    var path = el("path", { "class": "edge", fill: "none", stroke: style.kind_colours[edge.kind],
      "marker-end": "url(#arrow-" + edge.kind + ")", "data-source": edge.source, "data-target": edge.target,
      "data-channel": edge.channel }, edgeLayer);
    if (style.kind_dashes[edge.kind]) { path.setAttribute("stroke-dasharray", style.kind_dashes[edge.kind].join(" ")); }
    path.addEventListener("mousemove", function (event) {
      var n = messagesOf(edge);
      show(event, "<b>" + esc(edge.source) + " \u2192 " + esc(edge.target) + "</b><br>" + n + " " +
        esc(edge.channel) + " message" + (n === 1 ? "" : "s") + (state.day === "all" ? " (days " +
        esc(edge.days) + ")" : " on day " + esc(state.day)));
    });
    path.addEventListener("mouseleave", hide);
    return { edge: edge, path: path };
  });

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  var nodeGroups = data.players.map(function (p) {
    var g = el("g", { "class": "player fate-" + p.status, "data-player": p.name, "data-role": p.role,
      "data-status": p.status }, nodeLayer);
    var fill = p.colour;
    if (p.status === "banished") {
      el("rect", { x: -R, y: -R, width: 2 * R, height: 2 * R, rx: 3, fill: fill, "class": "shape" }, g);
    } else {
      el("circle", { r: R, fill: fill, "class": "shape" }, g);
    }
    if (p.status === "murdered") {
      var k = R * 0.62;
      el("path", { d: "M" + -k + "," + -k + " L" + k + "," + k + " M" + k + "," + -k + " L" + -k + "," + k,
        "class": "cross" }, g);
    }
    var label = el("text", { y: R + 17, "text-anchor": "middle", "class": "label" }, g);
    label.textContent = p.name;
    g.addEventListener("mousemove", function (event) {
      if (state.drag) { return; }
      var totals = totalsOf(p.name);
      var fate = p.status + (p.eliminated_day !== undefined && p.eliminated_day !== null ?
        " on day " + p.eliminated_day : "");
      show(event, "<b>" + esc(p.name) + "</b><br>" + esc(p.role) + ", " + esc(fate) + "<br>profile " +
        esc(p.profile || "-") + "<br>told " + totals.sent + ", heard " + totals.heard +
        (state.day === "all" ? "" : " on day " + esc(state.day)));
    });
    g.addEventListener("mouseleave", hide);
    g.addEventListener("pointerdown", function (event) {
      state.drag = { name: p.name, moved: false, x: event.clientX, y: event.clientY };
      g.setPointerCapture(event.pointerId);
      event.stopPropagation();
    });
    g.addEventListener("pointermove", function (event) {
      if (!state.drag || state.drag.name !== p.name) { return; }
      if (Math.abs(event.clientX - state.drag.x) + Math.abs(event.clientY - state.drag.y) > 3) {
        state.drag.moved = true;
      }
      if (!state.drag.moved) { return; }
      var point = svgPoint(event);
      p.px = Math.max(R, Math.min(W - R, point[0]));
      p.py = Math.max(R, Math.min(H - R, point[1]));
      hide();
      render();
    });
    g.addEventListener("pointerup", function (event) {
      var drag = state.drag;
      state.drag = null;
      if (g.hasPointerCapture(event.pointerId)) { g.releasePointerCapture(event.pointerId); }
      if (drag && !drag.moved) { select(state.selected === p.name ? null : p.name); }
      event.stopPropagation();
    });
    return { player: p, group: g };
  });

  function svgPoint(event) {
    var box = svg.getBoundingClientRect();
    return [(event.clientX - box.left) / box.width * W, (event.clientY - box.top) / box.height * H];
  }

  function totalsOf(name) {
    var sent = 0, heard = 0;
    data.edges.forEach(function (edge) {
      var n = messagesOf(edge);
      if (edge.source === name) { sent += n; }
      if (edge.target === name) { heard += n; }
    });
    return { sent: sent, heard: heard };
  }

  function show(event, html) {
    tooltip.innerHTML = html;
    tooltip.style.display = "block";
    tooltip.style.left = (event.clientX + 14) + "px";
    tooltip.style.top = (event.clientY + 14) + "px";
  }

  function hide() { tooltip.style.display = "none"; }

  function select(name) {
    state.selected = name;
    render();
  }

  function render() {
    var most = 1;
    edgeNodes.forEach(function (e) { most = Math.max(most, messagesOf(e.edge)); });
    var linked = {};
    edgeNodes.forEach(function (e) {
      var n = messagesOf(e.edge);
      var visible = n > 0;
      e.path.style.display = visible ? "" : "none";
      if (!visible) { return; }
      e.path.setAttribute("d", geometry(e.edge));
      e.path.setAttribute("stroke-width", width(n, most).toFixed(2));
      var touches = state.selected === null || e.edge.source === state.selected || e.edge.target === state.selected;
      e.path.classList.toggle("dim", !touches);
      if (touches && state.selected !== null) { linked[e.edge.source] = true; linked[e.edge.target] = true; }
    });
    nodeGroups.forEach(function (n) {
      n.group.setAttribute("transform", "translate(" + n.player.px.toFixed(1) + "," + n.player.py.toFixed(1) + ")");
      n.group.classList.toggle("dim", state.selected !== null && !linked[n.player.name] &&
        n.player.name !== state.selected);
      n.group.classList.toggle("selected", n.player.name === state.selected);
    });
    document.getElementById("shown").textContent = edgeNodes.filter(function (e) {
      return messagesOf(e.edge) > 0;
    }).length + " edges shown";
  }

  data.days.forEach(function (day) {
    var option = document.createElement("option");
    option.value = String(day);
    option.textContent = "day " + day;
    daySelect.appendChild(option);
  });
  daySelect.addEventListener("change", function () { state.day = daySelect.value; render(); });
  background.addEventListener("click", function () { select(null); });

  render();
  document.documentElement.setAttribute("data-ready", "1");
})();
