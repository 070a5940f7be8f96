// SPDX-License-Identifier: Apache-2.0
// ane_td_ctrl: the TD front end of the neural-engine core (docs/td_fetch.md): ane_td_fetch walks
// the chain and hands out each TD's register writes, ane_td_setup plans the layer and
// configures the core (its configuration port and busy/done go to an ane_core next to this
// block), ane_td_kdma converts the program's raw kernels into the core's pass directory and
// kernel groups in the staging region kstage_i, ane_td_table turns a lookup-table blob into the
// post-processor's segments. The driver gives the buffer table (bar_i: byte address of each
// buffer a TD names by index) and starts the walk; done_o pulses when the last TD's layer is
// done; an error stops the layers (the walk ends, error_o and where it came from stay until the
// next start).
//
// Memory: three read ports (TDs, kernels, table; 64-bit beats at 8-byte aligned addresses,
// answers in order after any latency, no back-pressure) and one write port (the staging
// region's beats). A real engine shares one DMA port among them; here the memory model answers
// each.
`default_nettype none

module ane_td_ctrl #(
  parameter int unsigned NumLanes  = 256,
  parameter int unsigned BankBytes = 512,
  parameter int unsigned BeatBytes = 8,
  parameter int unsigned NumBars   = 32,
  parameter int unsigned MaxTds    = 4096,
  localparam int unsigned TdW      = $clog2(MaxTds + 1)
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  // control
  input  wire logic                  start_i,     // taken while busy_o is low
  input  wire logic [31:0]           base_i,      // the first TD
  input  wire logic [31:0]           limit_i,     // bytes of the TD buffer from base_i
  input  wire logic [NumBars*32-1:0] bar_i,
  input  wire logic [31:0]           kstage_i,
  output      logic                  busy_o,
  output      logic                  done_o,
  output      logic                  error_o,
  output      logic                  err_setup_o, // the error is the set-up's (else the fetch's)
  output      logic [2:0]            err_code_o,  // ane_td_fetch's or ane_td_setup's code
  output      logic [TdW-1:0]        err_td_o,
  output      logic [23:0]           err_addr_o,  // set-up code 5: the first refused word (register
  output      logic                  err_header_o,// address, or a header word's TD offset)
  output      logic [31:0]           st_setup_o,  // the last TD's set-up cycles
  // TD read port
  output      logic                  td_rd_valid_o,
  input  wire logic                  td_rd_ready_i,
  output      logic [31:0]           td_rd_addr_o,
  input  wire logic                  td_rs_valid_i,
  input  wire logic [63:0]           td_rs_data_i,
  // kernel read port and staging write port
  output      logic                  kd_rd_valid_o,
  input  wire logic                  kd_rd_ready_i,
  output      logic [31:0]           kd_rd_addr_o,
  input  wire logic                  kd_rs_valid_i,
  input  wire logic [63:0]           kd_rs_data_i,
  output      logic                  kd_wr_valid_o,
  input  wire logic                  kd_wr_ready_i,
  output      logic [31:0]           kd_wr_addr_o,
  output      logic [63:0]           kd_wr_data_o,
  // table read port
  output      logic                  tb_rd_valid_o,
  input  wire logic                  tb_rd_ready_i,
  output      logic [31:0]           tb_rd_addr_o,
  input  wire logic                  tb_rs_valid_i,
  input  wire logic [63:0]           tb_rs_data_i,
  // the core
  output      logic                  cfg_we_o,
  output      logic [7:0]            cfg_addr_o,
  output      logic [31:0]           cfg_wdata_o,
  input  wire logic                  core_busy_i,
  input  wire logic                  core_done_i,
  output      logic                  pe_cfg_we_o,    // to ane_planar's configuration port
  output      logic [5:0]            pe_cfg_addr_o,
  output      logic [31:0]           pe_cfg_wdata_o,
  input  wire logic                  pe_busy_i,
  input  wire logic                  pe_done_i
);

  logic                 f_busy, f_done, f_error;
  logic [2:0]           f_code, f_stream;
  logic [TdW-1:0]       f_err_td;
  logic [31:0]          f_err_off;
  logic                 w_valid, w_ready, w_header, w_last, task_done;
  logic [23:0]          w_addr;
  logic [31:0]          w_data;
  logic [TdW-1:0]       w_td;

  ane_td_fetch #(.MaxTds(MaxTds)) u_fetch (
    .clk_i, .rst_ni, .start_i, .base_i, .limit_i,
    .busy_o(f_busy), .done_o(f_done), .error_o(f_error), .err_code_o(f_code), .err_stream_o(f_stream),
    .err_td_o(f_err_td), .err_off_o(f_err_off),
    .rd_valid_o(td_rd_valid_o), .rd_ready_i(td_rd_ready_i), .rd_addr_o(td_rd_addr_o),
    .rs_valid_i(td_rs_valid_i), .rs_data_i(td_rs_data_i),
    .wr_valid_o(w_valid), .wr_ready_i(w_ready), .wr_addr_o(w_addr), .wr_data_o(w_data),
    .wr_header_o(w_header), .wr_td_o(w_td), .wr_last_o(w_last), .task_done_i(task_done)
  );

  logic                 s_busy, s_error;
  logic [2:0]           s_code;
  logic [TdW-1:0]       s_err_td;
  logic                 kd_start, kd_fp16, kd_params, kd_busy;
  logic [16*32-1:0]     kd_chan_base;
  logic [4:0]           kd_nchan;
  logic [15:0]          kd_steps, kd_scale;
  logic [9:0]           kd_per, kd_ppg;
  logic [3:0]           kd_nk_full, kd_nk_last;
  logic [10:0]          kd_passes;
  logic [31:0]          tb_base;
  logic                 kd_bias_in, kd_err;
  logic                 tb_start, tb_busy, tb_error, tb_wvalid, tb_wready;
  logic [5:0]           tb_waddr;
  logic [31:0]          tb_wdata;

  ane_td_setup #(
    .NumLanes(NumLanes), .BankBytes(BankBytes), .BeatBytes(BeatBytes), .NumBars(NumBars), .TdW(TdW)
  ) u_setup (
    .clk_i, .rst_ni, .clear_i(start_i && !busy_o), .bar_i, .kstage_i,
    .wr_valid_i(w_valid), .wr_ready_o(w_ready), .wr_addr_i(w_addr), .wr_data_i(w_data),
    .wr_header_i(w_header), .wr_td_i(w_td), .wr_last_i(w_last), .task_done_o(task_done),
    .busy_o(s_busy), .error_o(s_error), .err_code_o(s_code), .err_td_o(s_err_td), .err_addr_o, .err_header_o,
    .st_setup_o,
    .cfg_we_o, .cfg_addr_o, .cfg_wdata_o, .core_busy_i, .core_done_i,
    .pe_cfg_we_o, .pe_cfg_addr_o, .pe_cfg_wdata_o, .pe_busy_i, .pe_done_i,
    .kd_start_o(kd_start), .kd_chan_base_o(kd_chan_base), .kd_nchan_o(kd_nchan), .kd_steps_o(kd_steps),
    .kd_fp16_o(kd_fp16), .kd_per_o(kd_per), .kd_nk_full_o(kd_nk_full), .kd_ppg_o(kd_ppg),
    .kd_nk_last_o(kd_nk_last), .kd_passes_o(kd_passes), .kd_params_o(kd_params), .kd_scale_o(kd_scale),
    .kd_bias_in_o(kd_bias_in), .kd_busy_i(kd_busy), .kd_err_i(kd_err),
    .tb_start_o(tb_start), .tb_base_o(tb_base), .tb_busy_i(tb_busy), .tb_error_i(tb_error),
    .tb_wr_valid_i(tb_wvalid), .tb_wr_ready_o(tb_wready), .tb_wr_addr_i(tb_waddr), .tb_wr_data_i(tb_wdata)
  );

  logic kd_done;
  ane_td_kdma u_kdma (
    .clk_i, .rst_ni, .start_i(kd_start), .stage_i(kstage_i), .chan_base_i(kd_chan_base), .nchan_i(kd_nchan),
    .steps_i(kd_steps), .fp16_i(kd_fp16), .per_i(kd_per), .nk_full_i(kd_nk_full), .ppg_i(kd_ppg),
    .nk_last_i(kd_nk_last), .passes_i(kd_passes), .params_i(kd_params), .scale_i(kd_scale), .bias_i(32'd0),
    .bias_in_i(kd_bias_in), .busy_o(kd_busy), .err_o(kd_err), .done_o(kd_done),
    .rd_valid_o(kd_rd_valid_o), .rd_ready_i(kd_rd_ready_i), .rd_addr_o(kd_rd_addr_o),
    .rs_valid_i(kd_rs_valid_i), .rs_data_i(kd_rs_data_i),
    .wr_valid_o(kd_wr_valid_o), .wr_ready_i(kd_wr_ready_i), .wr_addr_o(kd_wr_addr_o), .wr_data_o(kd_wr_data_o)
  );

  logic       tb_done;
  logic [5:0] tb_err_word;
  ane_td_table u_table (
    .clk_i, .rst_ni, .start_i(tb_start), .base_i(tb_base), .busy_o(tb_busy), .done_o(tb_done),
    .error_o(tb_error), .err_word_o(tb_err_word),
    .rd_valid_o(tb_rd_valid_o), .rd_ready_i(tb_rd_ready_i), .rd_addr_o(tb_rd_addr_o),
    .rs_valid_i(tb_rs_valid_i), .rs_data_i(tb_rs_data_i),
    .wr_valid_o(tb_wvalid), .wr_ready_i(tb_wready), .wr_addr_o(tb_waddr), .wr_data_o(tb_wdata)
  );

  assign busy_o      = f_busy || s_busy || kd_busy || tb_busy;
  assign done_o      = f_done && !s_error;
  assign error_o     = f_error || s_error;
  assign err_setup_o = s_error;
  assign err_code_o  = s_error ? s_code : f_code;
  assign err_td_o    = s_error ? s_err_td : f_err_td;

  logic unused;
  assign unused = ^{f_stream, f_err_off, kd_done, tb_done, tb_err_word};

endmodule
