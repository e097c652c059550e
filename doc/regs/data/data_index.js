var N_RAL_FILES = 1;
var N_RAL_NODES_PER_FILE = 16384;
var RootNodeIds = [0];
var PageInfo = {"title":"pka registers"};
