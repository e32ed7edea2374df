(function(){var list=[];window.__reptestErrors=list;
function note(m){list.push(String(m));document.documentElement.setAttribute('data-errors',String(list.length));if(document.body){document.body.setAttribute('data-errors',String(list.length));}}
window.addEventListener('error',function(e){note(e.message||'error');});
window.addEventListener('unhandledrejection',function(e){note(e.reason||'unhandled rejection');});
var original=console.error;console.error=function(){note(Array.prototype.join.call(arguments,' '));return original.apply(console,arguments);};
document.documentElement.setAttribute('data-errors','0');})();
