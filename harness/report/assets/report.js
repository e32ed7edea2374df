(function(){
'use strict';
var data=JSON.parse(document.getElementById('report-data').textContent);
var KINDS=['pass','fail','either','error','timeout','crash','unsupported'];
var SYMBOL={pass:'\u2713',fail:'\u2717',either:'~',error:'E',timeout:'T',crash:'C',unsupported:'\u2013'};
var LABEL={pass:'pass',fail:'fail',either:'verdict where the RFC permits either',error:'error',timeout:'timeout',crash:'crash',unsupported:'unsupported (not judged)'};
// Sorting: the worst first.
var RANK={fail:0,crash:1,timeout:2,error:3,either:4,unsupported:5,pass:6};
var impls=data.implementations;
var nImpl=impls.length;
var rows=[];
data.cases.forEach(function(c){c.queries.forEach(function(q){rows.push({c:c,q:q});});});
var nRows=rows.length;
function esc(s){return String(s).replace(/[&<>"']/g,function(ch){return {'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[ch];});}
// Escaped, then `x` as <code>x</code> (as the page's questions, html.rs code_spans).
function ticks(s){return esc(s).replace(/`([^`]+)`/g,'<code>$1</code>');}
function cellOf(i,r){var col=data.outcomes[i];return (col&&col[r])||{word:'error',detail:'no outcome in the report'};}
function judge(expect,word){
  if(word==='allowed'||word==='disallowed'){if(expect==='either'){return 'either';}return expect===word?'pass':'fail';}
  return RANK.hasOwnProperty(word)?word:'error';
}
function expectOf(q,profile){return (q.expect&&q.expect[profile])||(q.expect&&q.expect.rfc9309)||'either';}
// Rows where two implementations gave different verdicts (whatever the expectation).
var disagree=rows.map(function(row,r){var seen={};var n=0;
  for(var i=0;i<nImpl;i++){var w=cellOf(i,r).word;if((w==='allowed'||w==='disallowed')&&!seen[w]){seen[w]=1;n++;}}
  return n>1;});
// The page opens on the questions when the corpus has them (a report of one
// implementation on what it did not pass); a fragment overrides.
var defaultView=(data.questions&&data.questions.length&&nImpl>1)?'questions':'matrix';
var state={profile:'rfc9309',level:'',dim:'',req:'',q:'',disagree:false,fails:-1,sort:-1,desc:false,open:null,view:defaultView};
if(nImpl===1&&!location.hash){state.fails=0;}
if(data.meta.profiles.indexOf('rfc9309')<0&&data.meta.profiles.length){state.profile=data.meta.profiles[0];}
var $=function(id){return document.getElementById(id);};
var body=document.body,table=$('matrix'),thead=$('matrix-head'),tbody=$('matrix-body');
// Filter choices from the data.
(function(){
  var sel=$('f-profile');data.meta.profiles.forEach(function(p){var o=document.createElement('option');o.value=p;o.textContent=p;sel.appendChild(o);});
  impls.forEach(function(im,i){var o=document.createElement('option');o.value=String(i);o.textContent=im.name;$('f-fails').appendChild(o);});
  var levels=[];rows.forEach(function(row){if(levels.indexOf(row.q.level)<0){levels.push(row.q.level);}});
  var order=['MUST','SHOULD','MAY'];levels.sort(function(a,b){return (order.indexOf(a)+99*(order.indexOf(a)<0))-(order.indexOf(b)+99*(order.indexOf(b)<0));});
  levels.forEach(function(l){var o=document.createElement('option');o.value=l;o.textContent=l;$('f-level').appendChild(o);});
  var dims={};data.cases.forEach(function(c){c.dimensions.forEach(function(d){dims[d]=1;});});
  Object.keys(dims).sort().forEach(function(d){var o=document.createElement('option');o.value=d;o.textContent=d;$('f-dim').appendChild(o);});
  var cited={};rows.forEach(function(row){row.q.requirements.forEach(function(id){cited[id]=1;});});
  data.requirements.forEach(function(req){if(cited[req.id]){var o=document.createElement('option');o.value=req.id;o.textContent=req.level+' \u00a7'+req.section;$('req-list').appendChild(o);}});
  var legend=$('legend');var parts=['<b>Legend:</b>'];
  KINDS.forEach(function(k){parts.push('<span><span class="k j-'+k+'">'+SYMBOL[k]+'</span>'+esc(LABEL[k])+'</span>');});
  parts.push('<span><span class="k j-either">A</span><span class="k j-either">D</span>a fuzzing finding awaiting its verdict: the recorded answer (allowed / disallowed), not judged</span>');
  legend.innerHTML=parts.join(' ');
})();
var order=rows.map(function(_,r){return r;});
function judgements(r){var q=rows[r].q;var e=expectOf(q,state.profile);var out=[];for(var i=0;i<nImpl;i++){out.push(judge(e,cellOf(i,r).word));}return out;}
function renderHead(){
  var h=['<tr><th class="qh" data-sort="id" title="corpus order">query'+(state.sort<0?' <span class="arrow">\u25be</span>':'')+'</th><th data-sort="id">level</th><th data-sort="id">requirements</th><th data-sort="id">expected</th>'];
  for(var i=0;i<nImpl;i++){
    var pass=0,judged=0;
    for(var r=0;r<nRows;r++){if(rows[r].q.finding){continue;}var j=judge(expectOf(rows[r].q,state.profile),cellOf(i,r).word);if(j!=='unsupported'){judged++;if(j==='pass'||j==='either'){pass++;}}}
    var rate=judged?Math.floor(1000*pass/judged)/10:100;
    var im=impls[i];
    h.push('<th class="ih'+(state.sort===i?' sorted':'')+(state.fails===i?' fcol':'')+'" data-sort="'+i+'" title="'+esc(im.name+' '+im.version+' ('+im.language+'): '+pass+' of '+judged+' judged queries passed under '+state.profile+'; click to sort')+'"><div class="vn">'+esc(im.name)+'</div><div class="pr">'+(state.sort===i?'<span class="arrow">'+(state.desc?'\u25b4':'\u25be')+'</span>':Math.round(rate)+'%')+'</div></th>');
  }
  h.push('</tr>');thead.innerHTML=h.join('');
}
function renderBody(){
  order=rows.map(function(_,r){return r;});
  var js=null;
  if(state.sort>=0){
    var s=state.sort;js=[];for(var r=0;r<nRows;r++){js.push(RANK[judge(expectOf(rows[r].q,state.profile),cellOf(s,r).word)]);}
    order.sort(function(a,b){var d=js[a]-js[b];if(state.desc){d=-d;}return d||a-b;});
  }
  var html=[];
  for(var k=0;k<nRows;k++){
    var r=order[k],q=rows[r].q;var e=expectOf(q,state.profile);var differs=e!==expectOf(q,'rfc9309');
    html.push('<tr data-q="'+r+'"><th title="'+esc(q.id+'  '+q.url)+'">'+esc(q.id)+'</th><td class="m lv '+esc(q.level)+'">'+esc(q.level)+'</td><td class="m rq" title="'+esc(q.requirements.join(' '))+'">'+esc(q.requirements.join(' '))+'</td><td class="m ex"'+(differs?' title="differs from rfc9309 ('+esc(expectOf(q,'rfc9309'))+')"':'')+'>'+esc(e)+(differs?'*':'')+'</td>');
    for(var i=0;i<nImpl;i++){var w=cellOf(i,r).word;var j=judge(e,w);var sym=SYMBOL[j];if(q.finding&&j==='either'){sym=w==='allowed'?'A':'D';}html.push('<td class="c j-'+j+(state.fails===i?' fcol':'')+'">'+sym+'</td>');}
    html.push('</tr>');
  }
  tbody.innerHTML=html.join('');
}
function matches(row,r){
  var q=row.q;
  if(state.level&&q.level!==state.level){return false;}
  if(state.dim&&row.c.dimensions.indexOf(state.dim)<0){return false;}
  if(state.req){var want=state.req.toLowerCase();var exact=q.requirements.some(function(id){return id.toLowerCase()===want;});
    var known=data.requirements.some(function(x){return x.id.toLowerCase()===want;});
    if(!(exact||(!known&&q.requirements.some(function(id){return id.toLowerCase().indexOf(want)>=0;})))){return false;}}
  if(state.q){var t=state.q.toLowerCase();if((q.id+'\n'+q.url+'\n'+q.agent+'\n'+(q.question||'')).toLowerCase().indexOf(t)<0){return false;}}
  if(state.disagree&&!disagree[r]){return false;}
  if(state.fails>=0){if(q.finding){return false;}var j=judge(expectOf(q,state.profile),cellOf(state.fails,r).word);if(j==='pass'||j==='either'||j==='unsupported'){return false;}}
  return true;
}
function applyFilters(){
  var shown=0;var trs=tbody.rows;
  for(var k=0;k<trs.length;k++){var tr=trs[k];var r=+tr.getAttribute('data-q');var ok=matches(rows[r],r);tr.hidden=!ok;if(ok){shown++;}}
  $('f-count').textContent=shown+' of '+nRows+' rows';
  body.setAttribute('data-visible',String(shown));
}
function syncControls(){
  $('f-profile').value=state.profile;$('f-level').value=state.level;$('f-dim').value=state.dim;
  $('f-req').value=state.req;$('f-q').value=state.q;$('f-disagree').checked=state.disagree;
  $('f-fails').value=state.fails>=0?String(state.fails):'';
}
function writeHash(){
  var p=[];
  // A matrix key without view= opens the matrix (readHash): another view is then named.
  var matrixState=state.level||state.dim||state.req||state.q||state.disagree||state.fails>=0||state.sort>=0||state.open;
  if(state.view!==defaultView||(matrixState&&state.view!=='matrix')){p.push('view='+state.view);}
  if(state.profile!=='rfc9309'){p.push('profile='+encodeURIComponent(state.profile));}
  if(state.level){p.push('level='+encodeURIComponent(state.level));}
  if(state.dim){p.push('dim='+encodeURIComponent(state.dim));}
  if(state.req){p.push('req='+encodeURIComponent(state.req));}
  if(state.q){p.push('q='+encodeURIComponent(state.q));}
  if(state.disagree){p.push('disagree=1');}
  if(state.fails>=0){p.push('fails='+encodeURIComponent(impls[state.fails].name));}
  if(state.sort>=0){p.push('sort='+encodeURIComponent(impls[state.sort].name));if(state.desc){p.push('dir=desc');}}
  if(state.open){p.push('open='+encodeURIComponent(rows[state.open.r].q.id+(state.open.i>=0?'@'+impls[state.open.i].name:'')));}
  var h=p.length?'#'+p.join('&'):' ';
  try{history.replaceState(null,'',h===' '?location.pathname+location.search:h);}catch(e){/* file:// in some browsers: keep the old fragment */}
}
// The matrix's own keys: a fragment with one of them and no view= opens the matrix.
var MATRIX_KEYS=['fails','level','dim','req','q','disagree','sort','impl-sort','open'];
function readHash(){
  var h=location.hash.replace(/^#/,'');if(!h){return;}
  var viewGiven=false,matrixKey=false;
  h.split('&').forEach(function(kv){
    var at=kv.indexOf('=');var k=at<0?kv:kv.slice(0,at);var v='';
    if(k==='view'){viewGiven=true;}else if(MATRIX_KEYS.indexOf(k)>=0){matrixKey=true;}
    try{v=at<0?'':decodeURIComponent(kv.slice(at+1).replace(/\+/g,' '));}catch(e){v=kv.slice(at+1);}
    if(k==='profile'&&data.meta.profiles.indexOf(v)>=0){state.profile=v;}
    else if(k==='level'){state.level=v.toUpperCase();}
    else if(k==='dim'){state.dim=v;}
    else if(k==='req'){state.req=v;}
    else if(k==='q'){state.q=v;}
    else if(k==='disagree'){state.disagree=v!=='0'&&v!=='false';}
    else if(k==='fails'){state.fails=impls.findIndex(function(im){return im.name===v;});}
    else if(k==='sort'||k==='impl-sort'){state.sort=impls.findIndex(function(im){return im.name===v;});}
    else if(k==='dir'){state.desc=v==='desc';}
    else if(k==='view'&&(v==='questions'||v==='matrix'||v==='scores'||v==='access'||v==='crawlers'||v==='agreement')){state.view=v;}
    else if(k==='open'){var a=v.lastIndexOf('@');var id=a<0?v:v.slice(0,a);var name=a<0?'':v.slice(a+1);
      /* a query id may hold '@' itself (its name holds the URL): a whole match wins */
      if(rows.some(function(row){return row.q.id===v;})){id=v;name='';}
      var r=rows.findIndex(function(row){return row.q.id===id;});
      if(r>=0){state.open={r:r,i:impls.findIndex(function(im){return im.name===name;})};}}
  });
  if(matrixKey&&!viewGiven){state.view='matrix';}
}
function showView(){
  ['questions','matrix','scores','access','crawlers','agreement'].forEach(function(v){$('view-'+v).hidden=v!==state.view;});
  Array.prototype.forEach.call(document.querySelectorAll('#tabs button'),function(b){b.classList.toggle('on',b.getAttribute('data-view')===state.view);});
}
function renderAll(){renderHead();renderBody();applyFilters();markSelected();body.setAttribute('data-profile',state.profile);}
function markSelected(){
  Array.prototype.forEach.call(tbody.querySelectorAll('.sel'),function(el){el.classList.remove('sel');});
  if(!state.open){return;}
  var tr=tbody.querySelector('tr[data-q="'+state.open.r+'"]');if(!tr){return;}
  if(state.open.i>=0){var td=tr.cells[4+state.open.i];if(td){td.classList.add('sel');}}else{tr.classList.add('sel');}
}
// The body in visible notation, one numbered line per line of the file.
function bodyHtml(text,highlight,refLine){
  var max=60000;var cut=text.length>max;var shown=cut?text.slice(0,max):text;
  var lines=shown.split('\n');if(lines.length&&lines[lines.length-1]===''){lines.pop();}
  var out=lines.map(function(l,n){return '<span class="ln'+(highlight.indexOf(n+1)>=0?' hl':'')+(refLine===n+1?' hl-ref':'')+'" data-n="'+(n+1)+'">'+esc(l)+'</span>';});
  if(cut){out.push('<span class="ln" data-n="\u2026">\u2026 '+(text.length-max)+' more characters not shown</span>');}
  if(!out.length){out.push('<span class="ln" data-n="">(empty body)</span>');}
  return out.join('');
}
function openDetail(r,i){
  state.open={r:r,i:i};var row=rows[r],c=row.c,q=row.q;
  var lines=c.body.split('\n');
  function lineText(n){return n>=1&&n<=lines.length?lines[n-1]:'';}
  var chosen=i>=0?cellOf(i,r):null;
  var h=[];
  h.push('<h2>'+ticks(c.title)+'</h2><div class="where">'+esc(c.file)+':'+c.line+' \u00b7 case '+esc(c.id)+' \u00b7 query '+esc(q.id)+' at line '+q.line+'</div>');
  if(c.dimensions.length){h.push('<div class="where">dimensions: '+esc(c.dimensions.join(', '))+'</div>');}
  h.push('<h3>Query</h3><dl><dt>agent</dt><dd>'+esc(q.agent)+'</dd><dt>URL</dt><dd>'+esc(q.url)+'</dd><dt>level</dt><dd>'+esc(q.level)+'</dd><dt>requirements</dt><dd>'+esc(q.requirements.join(', '))+'</dd>');
  data.meta.profiles.forEach(function(p){h.push('<dt>expected ('+esc(p)+')</dt><dd>'+(p===state.profile?'<b>':'')+esc(expectOf(q,p))+(p===state.profile?'</b>':'')+'</dd>');});
  h.push('<dt>why</dt><dd class="why">'+ticks(q.why)+'</dd></dl>');
  if(q.triage){h.push('<p class="triage"><b>Triage:</b> '+ticks(q.triage)+'</p>');}
  if(q.question){var qe=(data.questions||[]).find(function(x){return x.id===q.question;});if(qe){h.push('<p class="qn"><b>'+esc(qe.id)+'</b> '+ticks(qe.question)+'</p>');}}
  if(c.fetch){h.push('<h3>Fetch outcome</h3><p>'+esc(c.fetch)+'</p>');}
  // The deciding lines side by side: the reference's (what the corpus expects to decide)
  // and the chosen implementation's.
  var ref=impls.findIndex(function(im){return im.name==='reference';});
  var refCell=ref>=0&&ref!==i?cellOf(ref,r):null;
  if(chosen&&refCell){
    var side=function(cls,who,cell){var say=cell.line?'line '+cell.line+'<code class="dl">'+esc(lineText(cell.line))+'</code>':(cell.word==='allowed'||cell.word==='disallowed'?'no deciding line reported':esc(cell.detail||'no verdict'));
      return '<div class="'+cls+'"><div class="who">'+esc(who)+' \u2192 <b>'+esc(cell.word)+'</b></div>'+say+'</div>';};
    h.push('<h3>Deciding line</h3><div class="deciding">'+side('ref','reference',refCell)+side('impl',impls[i].name,chosen)+'</div>');
  }
  var marks=[];if(chosen&&chosen.line){marks.push(chosen.line);}
  h.push('<h3>robots.txt <small class="where">(visible notation: \u2192 tab, \u2190 CR, \u21b5 LF, \u2423 trailing space, \u21d4 BOM'+(refCell&&refCell.line?'; the reference\u2019s deciding line dashed':'')+')</small></h3>');
  h.push('<pre>'+bodyHtml(c.body,marks,refCell&&refCell.line?refCell.line:0)+'</pre>');
  h.push('<h3>Verdicts under '+esc(state.profile)+'</h3><table><thead><tr><th></th><th>implementation</th><th>outcome</th><th>deciding line / detail</th></tr></thead><tbody>');
  var e=expectOf(q,state.profile);
  for(var k=0;k<nImpl;k++){
    var cell=cellOf(k,r);var j=judge(e,cell.word);var extra=[];
    if(cell.line){extra.push('line '+cell.line+': '+esc(lineText(cell.line)));}
    if(cell.detail){extra.push(esc(cell.detail));}
    h.push('<tr'+(k===i?' class="me"':'')+'><td class="k j-'+j+'" title="'+esc(LABEL[j])+'">'+SYMBOL[j]+'</td><td>'+esc(impls[k].name)+'</td><td>'+esc(cell.word)+'</td><td class="line">'+extra.join('<br>')+'</td></tr>');
  }
  h.push('</tbody></table>');
  $('detail-body').innerHTML=h.join('');
  $('detail').hidden=false;
  var pre=$('detail-body').querySelector('pre');var hl=pre&&pre.querySelector('.hl');
  if(hl){pre.scrollTop=Math.max(0,hl.offsetTop-pre.clientHeight/2);}
  markSelected();writeHash();
}
function closeDetail(){state.open=null;$('detail').hidden=true;markSelected();writeHash();}
// One delegated listener for the whole matrix.
table.addEventListener('click',function(ev){
  var el=ev.target.closest('th,td');if(!el){return;}
  var s=el.getAttribute('data-sort');
  if(s!==null){
    if(s==='id'){state.sort=-1;state.desc=false;}
    else{var i=+s;if(state.sort===i){state.desc=!state.desc;}else{state.sort=i;state.desc=false;}}
    renderAll();writeHash();return;
  }
  var tr=el.closest('tr[data-q]');if(!tr){return;}
  var r=+tr.getAttribute('data-q');
  var col=el.cellIndex-4;
  openDetail(r,el.tagName==='TD'&&el.classList.contains('c')?col:-1);
});
$('detail-close').addEventListener('click',closeDetail);
document.addEventListener('keydown',function(ev){if(ev.key==='Escape'&&state.open){closeDetail();}});
$('tabs').addEventListener('click',function(ev){var b=ev.target.closest('button[data-view]');if(!b){return;}state.view=b.getAttribute('data-view');showView();writeHash();});
$('f-profile').addEventListener('change',function(){state.profile=this.value;renderAll();if(state.open){openDetail(state.open.r,state.open.i);}writeHash();});
function onFilter(){var fails=state.fails;state.level=$('f-level').value;state.dim=$('f-dim').value;state.req=$('f-req').value.trim();state.q=$('f-q').value.trim();state.disagree=$('f-disagree').checked;state.fails=$('f-fails').value===''?-1:+$('f-fails').value;if(fails!==state.fails){renderAll();}else{applyFilters();}writeHash();}
['f-level','f-dim','f-disagree','f-fails'].forEach(function(id){$(id).addEventListener('change',onFilter);});
['f-req','f-q'].forEach(function(id){$(id).addEventListener('input',onFilter);});
$('f-reset').addEventListener('click',function(){state.level='';state.dim='';state.req='';state.q='';state.disagree=false;state.fails=-1;state.sort=-1;state.desc=false;syncControls();renderAll();writeHash();});
readHash();syncControls();showView();renderAll();
// A link inside the page (a question's "its queries in the matrix") changes the fragment.
window.addEventListener('hashchange',function(){readHash();syncControls();showView();renderAll();});
if(state.open){openDetail(state.open.r,state.open.i);var tr=tbody.querySelector('tr[data-q="'+state.open.r+'"]'),wrap=$('matrix-wrap');if(tr){wrap.scrollTop=Math.max(0,tr.offsetTop-wrap.clientHeight/2);}}
body.setAttribute('data-rows',String(tbody.rows.length));
body.setAttribute('data-cols',String(tbody.rows.length?tbody.rows[0].querySelectorAll('td.c').length:nImpl));
// Header labels cut short (for tests: none should be).
body.setAttribute('data-clipped',String(Array.prototype.filter.call(document.querySelectorAll('header .impls li'),function(li){return li.scrollWidth>li.clientWidth+1;}).length));
body.setAttribute('data-errors',document.documentElement.getAttribute('data-errors')||'0');
body.setAttribute('data-ready','1');
})();
