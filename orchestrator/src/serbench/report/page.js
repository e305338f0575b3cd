(function(){
"use strict";
var errors=[];
function noteError(msg){errors.push(String(msg));document.body.dataset.errors=errors.join(" | ");}
window.addEventListener("error",function(e){noteError(e.message||e);});
document.addEventListener("securitypolicyviolation",function(e){noteError("blocked "+e.blockedURI);});
var D=JSON.parse(document.getElementById("serbench-data").textContent);
var PATTERNS=["","/","\\","x",".","+","-","|"];
var fmtPattern={},nextPattern=0;
function pattern(f){if(!(f in fmtPattern)){fmtPattern[f]=PATTERNS[nextPattern++%PATTERNS.length];}return fmtPattern[f];}
function state(){
  var s={lang:{},format:{},test:{},lib:document.getElementById("lib-filter").value.trim().toLowerCase()};
  document.querySelectorAll("input[data-filter]").forEach(function(b){if(b.checked){s[b.dataset.filter][b.value]=1;}});
  return s;
}
function libOk(name,s){return !s.lib||name.toLowerCase().indexOf(s.lib)>=0;}
function shown(r,s){return s.lang[r.lang]&&s.format[r.format]&&s.test[r.test]&&libOk(r.lib,s);}
function unitOf(max,counting){
  if(counting){return [1,"instructions per op"];}
  if(max>=1e9){return [1e9,"s"];}if(max>=1e6){return [1e6,"ms"];}if(max>=1e3){return [1e3,"µs"];}return [1,"ns"];
}
var hasPlotly=typeof Plotly!=="undefined";
// no tool bar over the bars: zoom by dragging, double-click to reset
var CONFIG={displayModeBar:false,responsive:true};
var marks={};
// a chart whose positive values span more than this has a logarithmic axis (DESIGN §13)
var LOG_SPAN=10;
var GLYPH={"":"plain","/":"╱╱","\\":"╲╲","x":"✕✕",".":"··","+":"++","-":"──","|":"││"};
function logAxis(values){
  var pos=values.filter(function(v){return v>0;});
  if(pos.length<2){return null;}
  var lo=Math.min.apply(null,pos),hi=Math.max.apply(null,pos);
  return hi/lo>LOG_SPAN?lo:null;
}
// the small key under a chart: which hatching is which format (colour is the language, in the legend)
function formatKey(el,formats){
  var fig=el.closest("figure")||el.parentNode,key=fig.querySelector(".fmtkey");
  if(!key){key=document.createElement("p");key.className="fmtkey";fig.insertBefore(key,el.closest(".pair"));}
  key.textContent=formats.length>1?"Format (hatching): "+formats.map(function(f){return f+" "+GLYPH[pattern(f)];}).join(" · "):"";
}
function drawBars(el,spec,s){
  var rows=spec.rows.map(function(id){return D.rows[id];}).filter(function(r){return shown(r,s);});
  var okRows=rows.filter(function(r){return r.status==="ok";});
  var max=Math.max.apply(null,okRows.map(function(r){return Math.abs(r.hi!=null?r.hi:r.value);}).concat([1]));
  var u=unitOf(max,spec.counting),div=u[0];
  var ranked=okRows.filter(function(r){return !r.noise;});
  var floor=logAxis(ranked.map(function(r){return r.value;}));
  var log=floor!==null,tiny=log?floor/div/2:0;
  var traces=[],byKey={},formats=[];
  okRows.forEach(function(r){
    // one trace per language (the legend's colours); the format is the bar's hatching, keyed under the chart
    var grey=r.noise||r.apart;
    var key=r.apart?"other work, not ranked":r.noise?"within baseline noise":r.lang;
    if(!byKey[key]){byKey[key]={type:"bar",orientation:"h",name:key,x:[],y:[],customdata:[],
      hovertemplate:"%{y}<br>%{customdata}<extra></extra>",
      marker:{color:grey?"#adb5bd":(D.langColours[r.lang]||"#666"),opacity:grey?0.6:1,pattern:{shape:[]}},
      error_x:{type:"data",symmetric:false,array:[],arrayminus:[],visible:!spec.counting,color:"#212529",thickness:1.2,width:3}};
      traces.push(byKey[key]);}
    if(formats.indexOf(r.format)<0){formats.push(r.format);}
    var t=byKey[key],v=r.value/div;
    // on a log axis a net time at or below zero (within baseline noise) is drawn at the axis's foot
    var x=log?Math.max(v,tiny):v;
    t.x.push(x);t.y.push(r.label);
    t.customdata.push(r.text+(r.ci_text?" (95% CI "+r.ci_text+")":"")+(r.noise?" ⚠ within baseline noise":"")
      +(r.apart?" ⚠ other work: "+r.apart:""));
    t.marker.pattern.shape.push(pattern(r.format));
    var minus=r.lo!=null?(r.value-r.lo)/div:0;
    t.error_x.array.push(r.hi!=null?Math.max((r.hi-r.value)/div,0):0);
    t.error_x.arrayminus.push(log?Math.min(minus,x*0.95):minus);
  });
  var noise=okRows.filter(function(r){return r.noise;});
  if(noise.length){traces.push({type:"scatter",mode:"text",name:"not ranked",showlegend:false,hoverinfo:"skip",
    x:noise.map(function(r){return log?tiny:Math.max(r.value,0)/div;}),y:noise.map(function(r){return r.label;}),
    text:noise.map(function(){return "  ≈ 0: within baseline noise";}),textposition:"middle right",
    textfont:{color:"#495057"}});}
  var bad=rows.filter(function(r){return r.status!=="ok";});
  if(bad.length){traces.push({type:"scatter",mode:"text",name:"incorrect or failed",x:bad.map(function(){return log?tiny:0;}),
    y:bad.map(function(r){return r.label;}),text:bad.map(function(r){return r.text;}),textposition:"middle right",
    textfont:{color:"#c92a2a"},hovertext:bad.map(function(r){return r.text+": "+r.reason;}),hoverinfo:"text"});}
  var labels=rows.map(function(r){return r.label;});
  var what=spec.counting?"net instructions per op":"net time per op ("+u[1]+")";
  var layout={height:Math.max(170,90+24*rows.length),margin:{l:10,r:20,t:30,b:40},barmode:"overlay",
    xaxis:log?{type:"log",title:{text:what+", log scale"}}:{title:{text:what},zeroline:true,rangemode:"tozero"},
    yaxis:{type:"category",categoryorder:"array",categoryarray:labels,autorange:"reversed",automargin:true},
    legend:{orientation:"h",x:0,y:1.01,yanchor:"bottom"},showlegend:true,bargap:0.25};
  marks[el.dataset.chart]=okRows.length;
  el.dataset.axis=log?"log":"linear";
  formatKey(el,formats);
  return Plotly.react(el,traces,layout,CONFIG);
}
function drawScaling(el,spec,s){
  var series=spec.series.filter(function(x){return s.lang[x.lang]&&s.format[x.format]&&libOk(x.label,s);});
  var n=0;
  var traces=series.map(function(x){n+=x.points.length;return {type:"scatter",mode:"lines+markers",name:x.label,
    x:x.points.map(function(p){return p[0];}),y:x.points.map(function(p){return p[1];}),
    text:x.points.map(function(p){return p[2];}),
    hovertemplate:x.label+"<br>%{text}: %{x} B, %{y:.4s}"+(spec.counting?" instr":" ns")+"<extra></extra>",
    line:{color:D.langColours[x.lang]||"#666",dash:["solid","dash","dot","dashdot","longdash"][series.indexOf(x)%5]}};});
  marks[el.dataset.chart]=n;
  return Plotly.react(el,traces,{height:420,margin:{l:60,r:10,t:10,b:50},
    xaxis:{type:"log",title:{text:"document size (bytes)"}},
    yaxis:{type:"log",title:{text:spec.counting?"net instructions per op":"net time per op (ns)"}},
    legend:{font:{size:10}}},CONFIG);
}
function drawSizes(el,spec,s){
  // a typed dataset's bars are library rows (spec.keys), filtered as rows; the others are formats
  var idx=spec.formats.map(function(f,i){return (spec.keys?shown(spec.keys[i],s):s.format[f])?i:-1;})
    .filter(function(i){return i>=0;});
  var pick=function(a){return idx.map(function(i){return a[i];});};
  var fm=pick(spec.formats);
  var traces=[["raw",spec.raw,"#495057"],["gzip",spec.gzip,"#74c0fc"],["zstd",spec.zstd,"#1864ab"]].map(function(t){
    return {type:"bar",name:t[0],x:fm,y:pick(t[1]),marker:{color:t[2]}};});
  marks[el.dataset.chart]=fm.length*3;
  var payload=spec.payload?[{type:"line",xref:"paper",x0:0,x1:1,y0:spec.payload,y1:spec.payload,
    line:{color:"#e8590c",dash:"dash",width:1.5}}]:[];
  return Plotly.react(el,traces,{height:spec.keys?380:300,barmode:"group",margin:{l:60,r:10,t:10,b:spec.keys?120:40},
    yaxis:logAxis(spec.raw)!==null?{type:"log",title:{text:"bytes, log scale"+(spec.payload?" (dashed: theoretical payload)":"")}}
      :{title:{text:"bytes"+(spec.payload?" (dashed: theoretical payload)":"")}},
    xaxis:{automargin:true},shapes:payload},CONFIG);
}
function drawTrend(el,spec){
  var p=spec.points,max=Math.max.apply(null,p.map(function(x){return Math.abs(x.hi!=null?x.hi:x.value);}).concat([1]));
  var u=unitOf(max,spec.counting),div=u[0];
  marks[el.dataset.chart]=p.length;
  return Plotly.react(el,[{type:"scatter",mode:"lines+markers",name:spec.label,x:p.map(function(x){return x.run;}),
    y:p.map(function(x){return x.value/div;}),
    text:p.map(function(x){return x.text+" ("+x.version+(x.estimator?", "+x.estimator.toLowerCase():"")+")";}),
    hovertemplate:"%{x}<br>%{text}<extra></extra>",line:{color:D.langColours[spec.lang]||"#666"},
    error_y:{type:"data",symmetric:false,visible:!spec.counting,color:"#212529",
      array:p.map(function(x){return x.hi!=null?(x.hi-x.value)/div:0;}),
      arrayminus:p.map(function(x){return x.lo!=null?(x.value-x.lo)/div:0;})}}],
    {height:320,margin:{l:60,r:60,t:10,b:90},xaxis:{type:"category",title:{text:"run (oldest first)"}},
     yaxis:{rangemode:"tozero",title:{text:spec.counting?"net instructions per op":"net time ("+u[1]+")"}}},CONFIG);
}
function drawRatios(el,spec,s){
  var rows=spec.rows.filter(function(r){return shown(r,s)&&r.ratio!=null;});
  marks[el.dataset.chart]=rows.length;
  var labels=rows.map(function(r){return r.label;});
  return Plotly.react(el,[{type:"bar",orientation:"h",base:1,x:rows.map(function(r){return r.ratio-1;}),y:labels,
    customdata:rows.map(function(r){return r.text;}),hovertemplate:"%{y}<br>%{customdata}<extra></extra>",
    marker:{color:rows.map(function(r){return r.colour;})},showlegend:false,
    error_x:{type:"data",symmetric:false,visible:!spec.counting,color:"#212529",
      array:rows.map(function(r){return r.hi!=null?r.hi-r.ratio:0;}),
      arrayminus:rows.map(function(r){return r.lo!=null?r.ratio-r.lo:0;})}},
    // a dot at each ratio, so a ratio of exactly 1 (an empty bar) still shows
    {type:"scatter",mode:"markers",x:rows.map(function(r){return r.ratio;}),y:labels,showlegend:false,hoverinfo:"skip",
     marker:{color:rows.map(function(r){return r.colour;}),size:7,symbol:"diamond"}}],
    {height:Math.max(170,80+24*rows.length),margin:{l:10,r:20,t:10,b:40},
     xaxis:{title:{text:"B / A (below 1: B is "+(spec.counting?"fewer instructions":"faster")+")"}},
     yaxis:{type:"category",categoryorder:"array",categoryarray:labels,autorange:"reversed",automargin:true},
     shapes:[{type:"line",x0:1,x1:1,yref:"paper",y0:0,y1:1,line:{color:"#212529",width:1}}]},CONFIG);
}
function drawLatency(el,spec,s){
  var series=spec.series.filter(function(x){return shown(x,s);}),n=0;
  var traces=series.map(function(x,i){n+=x.points.length;return {type:"scatter",mode:"lines+markers",name:x.label,
    x:spec.names,y:x.points,connectgaps:true,hovertemplate:x.label+"<br>%{x}: %{y:.4s} ns<extra></extra>",
    line:{color:D.langColours[x.lang]||"#666",dash:["solid","dash","dot","dashdot","longdash"][i%5]}};});
  marks[el.dataset.chart]=n;
  return Plotly.react(el,traces,{height:380,margin:{l:60,r:10,t:10,b:50},
    xaxis:{type:"category",title:{text:"percentile"}},yaxis:{type:"log",title:{text:"latency per record (ns)"}},
    legend:{font:{size:10}}},CONFIG);
}
var DRAW={latency:drawLatency,bars:drawBars,scaling:drawScaling,sizes:drawSizes,trend:drawTrend,ratios:drawRatios};
function visible(el){return !el.closest("[hidden]");}
function drawAll(){
  var s=state();
  document.querySelectorAll("tr[data-lang]").forEach(function(tr){
    tr.hidden=!shown({lang:tr.dataset.lang,format:tr.dataset.format,test:tr.dataset.test,lib:tr.dataset.lib},s);});
  document.querySelectorAll("figure[data-test]").forEach(function(f){f.hidden=!s.test[f.dataset.test];});
  if(!hasPlotly){return;}
  var jobs=[];
  document.querySelectorAll("div.chart").forEach(function(el){
    if(!visible(el)){return;}
    var spec=D.charts[+el.dataset.chart];
    try{jobs.push(Promise.resolve(DRAW[spec.kind](el,spec,s)).then(function(){el.dataset.marks=marks[el.dataset.chart];}));}
    catch(e){noteError(e&&e.stack||e);}
  });
  Promise.all(jobs).then(function(){
    document.body.dataset.drawn=document.querySelectorAll("div.chart[data-marks]").length;
    document.body.dataset.marks=Object.keys(marks).reduce(function(a,k){return a+marks[k];},0);
  },function(e){noteError(e&&e.stack||e);});
}
function fromHash(){
  var h=new URLSearchParams(location.hash.slice(1));
  ["lang","format","test"].forEach(function(k){
    if(!h.has(k)){return;}var want=h.get(k).split(",");
    document.querySelectorAll('input[data-filter="'+k+'"]').forEach(function(b){b.checked=want.indexOf(b.value)>=0;});});
  if(h.has("lib")){document.getElementById("lib-filter").value=h.get("lib");}
}
function toHash(){
  var p=[];["lang","format","test"].forEach(function(k){
    var all=document.querySelectorAll('input[data-filter="'+k+'"]'),on=[];
    all.forEach(function(b){if(b.checked){on.push(b.value);}});
    if(on.length!==all.length){p.push(k+"="+on.join(","));}});
  var lib=document.getElementById("lib-filter").value.trim();if(lib){p.push("lib="+encodeURIComponent(lib));}
  history.replaceState(null,"",p.length?"#"+p.join("&"):location.pathname);
}
function sortBy(th){
  var table=th.closest("table"),i=Array.prototype.indexOf.call(th.parentNode.children,th);
  var dir=th.getAttribute("aria-sort")==="ascending"?-1:1;
  table.querySelectorAll("th").forEach(function(x){x.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",dir===1?"ascending":"descending");
  var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
  rows.sort(function(a,b){
    var x=a.cells[i].dataset.v,y=b.cells[i].dataset.v,nx=parseFloat(x),ny=parseFloat(y);
    if(x===""&&y!==""){return 1;}if(y===""&&x!==""){return -1;}
    if(!isNaN(nx)&&!isNaN(ny)){return dir*(nx-ny);}return dir*String(x).localeCompare(String(y));});
  rows.forEach(function(r){body.appendChild(r);});
}
document.querySelectorAll("table.sortable th").forEach(function(th){
  th.addEventListener("click",function(){sortBy(th);});});
document.getElementById("filters").addEventListener("input",function(){toHash();drawAll();});
// a menu shows one figure of its group (the cross-language combinations, the cells with a trend)
document.querySelectorAll("select[data-group]").forEach(function(pick){pick.addEventListener("change",function(){
  document.querySelectorAll('figure[data-group="'+pick.dataset.group+'"]').forEach(function(f){
    f.hidden=f.dataset.choice!==pick.value;});drawAll();});});
// for the browser test: how many of the answer's rows the first screen shows, without scrolling
function firstScreen(){
  var rows=document.querySelectorAll("table.answer tbody tr"),n=0;
  rows.forEach(function(r){var b=r.getBoundingClientRect();if(b.bottom<=window.innerHeight&&b.top>=0){n++;}});
  document.body.dataset.answerRows=rows.length;document.body.dataset.answerOnFirstScreen=n;
}
try{firstScreen();fromHash();drawAll();}catch(e){noteError(e&&e.stack||e);}
})();
